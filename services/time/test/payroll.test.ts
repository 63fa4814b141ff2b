import { currencyDigits, hoursByPosition, payrollCsv, payrollLines, rateInForce, type PayDay, type Rate } from '../src/pay-periods/payroll';

const rates: Rate[] = [
  { id: 'prt_1', type: 'hourly', amount: '20', position: null, effectiveDate: '2026-01-01' },
  { id: 'prt_2', type: 'hourly', amount: '22.5', position: null, effectiveDate: '2026-04-06' },
  { id: 'prt_3', type: 'hourly', amount: '25', position: 'Prep', effectiveDate: '2026-01-01' },
];

describe('payroll', () => {
  it('takes the rate in force on the day: the position\'s own, else the one for every position', () => {
    expect(rateInForce(rates, '2026-04-05', null)?.id).toBe('prt_1');
    expect(rateInForce(rates, '2026-04-06', null)?.id).toBe('prt_2');
    expect(rateInForce(rates, '2026-04-06', 'prep')?.id).toBe('prt_3');
    expect(rateInForce(rates, '2026-04-06', 'Cook')?.id).toBe('prt_2');
    expect(rateInForce(rates, '2025-12-31', null)).toBeNull();
  });

  it('pays a day\'s regular hours to its first shifts and its overtime to the last', () => {
    // 6 h as Prep from 06:00, then 5 h as Cook: 8 regular, 3 at 1.5 (the last hours worked)
    const split = hoursByPosition({
      date: '2026-04-07',
      regularHours: '8.00',
      overtime: { '1.5': '3.00' },
      shifts: [
        { start: '2026-04-07T06:00:00Z', position: 'Prep', workedHours: '6.00' },
        { start: '2026-04-07T12:30:00Z', position: 'Cook', workedHours: '5.00' },
      ],
    });
    expect(split.get('Prep')!.regular.toString()).toBe('6');
    expect(split.get('Cook')!.regular.toString()).toBe('2');
    expect(split.get('Cook')!.overtime.get('1.5')!.toString()).toBe('3');
  });

  it('estimates the gross per position and rate, with paid time off at the rate of its day, in the currency\'s digits', () => {
    const days: PayDay[] = [
      { date: '2026-04-03', regularHours: '8.00', overtime: { '1.5': '2.00' }, shifts: [{ start: '2026-04-03T08:00:00Z', position: null, workedHours: '10.00' }] },
      { date: '2026-04-07', regularHours: '2.00', overtime: {}, shifts: [{ start: '2026-04-07T08:00:00Z', position: 'Prep', workedHours: '2.00' }] },
    ];
    const lines = payrollLines(days, rates, { currencyDigits: 2, timeOffHours: { '2026-04-08': '8' } });
    expect(lines).toEqual([
      { position: null, rateType: 'hourly', rate: '20', from: '2026-04-03', to: '2026-04-03', regularHours: '8.00', overtime: { '1.5': '2.00' }, timeOffHours: '0.00', estimatedGross: '220.00' },
      { position: 'Prep', rateType: 'hourly', rate: '25', from: '2026-04-07', to: '2026-04-07', regularHours: '2.00', overtime: {}, timeOffHours: '0.00', estimatedGross: '50.00' },
      { position: null, rateType: 'hourly', rate: '22.5', from: '2026-04-08', to: '2026-04-08', regularHours: '0.00', overtime: {}, timeOffHours: '8.00', estimatedGross: '180.00' },
    ]);
    // a salaried employee's hours are listed, with no hourly gross; yen have no minor unit
    const salaried = payrollLines(days.slice(0, 1), [{ id: 'prt_s', type: 'salary', amount: '52000', position: null, effectiveDate: '2026-01-01' }], { currencyDigits: 0 });
    expect(salaried[0]).toMatchObject({ rateType: 'salary', rate: '52000', estimatedGross: null });
    expect(payrollLines([{ ...days[0], regularHours: '1.00', overtime: {} }], [{ ...rates[0], amount: '1234.5' }], { currencyDigits: currencyDigits('JPY') })[0].estimatedGross).toBe('1235');
    expect([currencyDigits('USD'), currencyDigits('JPY'), currencyDigits('BHD')]).toEqual([2, 0, 3]);
  });

  it('writes CSV a spreadsheet reads safely: quotes, commas and formula-like names escaped', () => {
    const csv = payrollCsv(
      [{ employeeId: 'emp_1', employeeNumber: '=1+1', externalId: null, firstName: 'Ann, "Chef"', lastName: '@Lee', lines: payrollLines([], rates, { currencyDigits: 2, timeOffHours: { '2026-04-08': '8' } }) }],
      { startDate: '2026-03-30', endDate: '2026-04-12' },
      'USD',
    );
    const [header, row] = csv.trimEnd().split('\r\n');
    expect(header.split(',')).toContain('estimatedGross');
    expect(row).toContain(`'=1+1`);
    expect(row).toContain(`"Ann, ""Chef"""`);
    expect(row).toContain(`'@Lee`);
    expect(row.endsWith(',180.00,USD')).toBe(true);
  });
});
