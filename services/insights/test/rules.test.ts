import Decimal from 'decimal.js';
import { laborIntervals, laborShares, paidHours } from '../src/labor/allocate';
import { comparisonPeriod, daysIn } from '../src/kpis/periods';
import { emptySums, kpiFigures } from '../src/kpis/figures';
import { shiftChange } from '../src/schedule/consumers';
import { calculatedTimesheet } from '../src/labor/consumers';
import { salesContributions } from '../src/sales/contributions';
import { flowOf } from '../src/stock/usage';
import { largestVariances, priceRise, reorder, staffing } from '../src/recommendations/rules';

describe('labor shares', () => {
  it('pays a day\'s regular hours to its first shifts and its overtime to the last, by location and position', () => {
    // 6 h as Prep at A from 06:00, then 5 h at the bar at B: 8 regular, 3 at 1.5 (the last hours worked)
    const shares = laborShares({
      date: '2026-04-07',
      regularHours: '8.00',
      overtime: { '1.5': '3.00' },
      shifts: [
        { start: '2026-04-07T12:30:00Z', locationId: 'loc_b', position: 'Bar', workedHours: '5.00' },
        { start: '2026-04-07T06:00:00Z', locationId: 'loc_a', position: 'Prep', workedHours: '6.00' },
      ],
    });
    expect(shares.map((x) => [x.locationId, x.position, x.regular.toString(), Object.fromEntries([...x.overtime].map(([m, h]) => [m, h.toString()]))])).toEqual([
      ['loc_a', 'Prep', '6', {}],
      ['loc_b', 'Bar', '2', { '1.5': '3' }],
    ]);
  });

  it('lets the last shift take what the rounded shift hours leave', () => {
    const shares = laborShares({
      date: '2026-04-07',
      regularHours: '8.00',
      overtime: {},
      shifts: [
        { start: '2026-04-07T06:00:00Z', locationId: 'loc_a', position: null, workedHours: '3.33' },
        { start: '2026-04-07T10:00:00Z', locationId: 'loc_a', position: 'Bar', workedHours: '4.66' },
      ],
    });
    expect(shares.reduce((n, x) => n.plus(x.regular), new Decimal(0)).toString()).toBe('8');
  });

  it('spreads a shift over 15-minute intervals, less its unpaid breaks, per location', () => {
    const intervals = laborIntervals({
      date: '2026-11-16',
      regularHours: '1.00',
      overtime: {},
      shifts: [
        { start: '2026-11-16T13:07:00Z', end: '2026-11-16T14:22:00Z', locationId: 'loc_a', position: null, workedHours: '1.00', unpaidBreaks: [{ start: '2026-11-16T13:30:00Z', end: '2026-11-16T13:45:00Z' }] },
        { start: '2026-11-16T14:15:00Z', end: '2026-11-16T14:30:00Z', locationId: 'loc_b', position: null, workedHours: '0.25' },
        // still open: nothing yet
        { start: '2026-11-16T20:00:00Z', end: null, locationId: 'loc_a', position: null, workedHours: '0.00' },
      ],
    });
    expect(intervals.map((x) => [x.locationId, x.intervalStart.toISOString().slice(11, 16), x.hours.times(60).toFixed(2)])).toEqual([
      ['loc_a', '13:00', '8.00'],
      ['loc_a', '13:15', '15.00'],
      ['loc_a', '13:45', '15.00'],
      ['loc_a', '14:00', '15.00'],
      ['loc_a', '14:15', '7.00'],
      ['loc_b', '14:15', '15.00'],
    ]);
  });

  it('counts paid hours: regular plus every overtime hour', () => {
    expect(paidHours({ regular: '4', overtime: { '1.5': '5' } }).toString()).toBe('9');
  });
});

describe('KPI figures and periods', () => {
  it('rounds once, at the end, and answers null where the divisor is zero', () => {
    expect(kpiFigures({ netSales: new Decimal('100.005'), transactions: 3, laborHours: new Decimal('7.125'), laborCost: new Decimal('33.3333'), scheduledHours: new Decimal('8.5'), scheduledCost: new Decimal('10.005'), wasteValue: new Decimal('12.3449'), overShort: new Decimal('-5.005'), theoreticalFoodCost: new Decimal('28.3349'), actualFoodCost: new Decimal('30.3351') })).toEqual({
      netSales: '100.01',
      transactions: 3,
      averageCheck: '33.34',
      laborHours: '7.13',
      laborCost: '33.33',
      laborPercent: '33.33',
      salesPerLaborHour: '14.04',
      scheduledHours: '8.50',
      scheduledCost: '10.01',
      scheduledLaborPercent: '10.00',
      wasteValue: '12.34',
      overShort: '-5.01',
      theoreticalFoodCost: '28.33',
      theoreticalFoodCostPercent: '28.33', // 28.3349 ÷ 100.005 × 100 = 28.3335…
      actualFoodCost: '30.34',
      actualFoodCostPercent: '30.33', // 30.3351 ÷ 100.005 × 100 = 30.3336…: from the exact cost, not the rounded one
      primeCost: '63.67', // 30.3351 + 33.3333
      primeCostPercent: '63.67',
    });
    expect(kpiFigures(emptySums())).toMatchObject({ averageCheck: null, laborPercent: null, salesPerLaborHour: null, scheduledLaborPercent: null, theoreticalFoodCostPercent: null, actualFoodCostPercent: null, primeCostPercent: null });
  });

  it('takes the days just before, or the same dates a year earlier', () => {
    expect(daysIn('2026-11-16', '2026-11-22')).toBe(7);
    expect(comparisonPeriod('2026-11-16', '2026-11-22', 'previous_period')).toEqual({ from: '2026-11-09', to: '2026-11-15' });
    expect(comparisonPeriod('2026-03-01', '2026-03-31', 'previous_period')).toEqual({ from: '2026-01-29', to: '2026-02-28' });
    expect(comparisonPeriod('2028-02-29', '2028-03-01', 'same_period_last_year')).toEqual({ from: '2027-02-28', to: '2027-03-01' });
  });
});

describe('event shapes', () => {
  it('reads recorded sales: the subtotal of a completed sale, nothing once voided, no count for a refund', () => {
    const parsed = salesContributions({
      locationId: 'loc_a',
      transactions: [
        { id: 'stx_1', version: 2, occurredAt: '2026-11-16T17:14:59Z', businessDay: '2026-11-16', type: 'sale', status: 'completed', subtotal: '10.50' },
        { id: 'stx_2', version: 1, occurredAt: '2026-11-16T17:15:00Z', businessDay: '2026-11-16', type: 'refund', status: 'completed', subtotal: '-4.00' },
        { id: 'stx_3', version: 3, occurredAt: '2026-11-16T17:15:00Z', businessDay: '2026-11-16', type: 'sale', status: 'voided', subtotal: '9.00' },
      ],
    });
    expect(parsed).toEqual([
      expect.objectContaining({ transactionId: 'stx_1', intervalStart: new Date('2026-11-16T17:00:00Z'), netSales: '10.50', transactions: 1 }),
      expect.objectContaining({ transactionId: 'stx_2', intervalStart: new Date('2026-11-16T17:15:00Z'), netSales: '-4.00', transactions: 0 }),
      expect.objectContaining({ transactionId: 'stx_3', netSales: '0', transactions: 0 }),
    ]);
    expect(salesContributions({ locationId: 'loc_a', transactions: [{ id: 'stx_1', version: 1, occurredAt: '2026-11-16T17:00:00Z', businessDay: '2026-11-16', status: 'completed', subtotal: 10.5 }] })).toBe('transactions.0.subtotal');
  });

  it('reads a shift\'s business day from its local start, its start and end instants, and refuses one without paid hours', () => {
    const shift = { id: 'shf_1', version: 3, locationId: 'loc_a', employeeId: null, position: 'Cook', localStart: '2026-11-16T23:30:00-05:00', localEnd: '2026-11-17T04:00:00-05:00', paidHours: '4.5', status: 'published' };
    expect(shiftChange(shift)).toEqual({ shiftId: 'shf_1', version: 3, locationId: 'loc_a', businessDay: '2026-11-16', employeeId: null, position: 'Cook', paidHours: '4.5', status: 'published', startsAt: new Date('2026-11-17T04:30:00Z'), endsAt: new Date('2026-11-17T09:00:00Z') });
    expect(shiftChange({ ...shift, localEnd: undefined })).toMatchObject({ startsAt: new Date('2026-11-17T04:30:00Z'), endsAt: null });
    expect(shiftChange({ ...shift, localEnd: '2026-11-16T23:00:00-05:00' })).toBe('localEnd');
    expect(shiftChange({ ...shift, paidHours: 4.5 })).toBe('paidHours');
  });

  it('refuses a calculated timesheet whose hours are not decimal strings', () => {
    const day = { date: '2026-11-16', regularHours: '8.00', overtime: {}, shifts: [{ start: '2026-11-16T13:00:00Z', locationId: 'loc_a', position: null, workedHours: '8.00' }] };
    expect(calculatedTimesheet({ id: 'tsh_1', employeeId: 'emp_1', version: 2, days: [day] })).toMatchObject({ id: 'tsh_1' });
    expect(calculatedTimesheet({ id: 'tsh_1', employeeId: 'emp_1', version: 2, days: [{ ...day, regularHours: 8 }] })).toBe('days.0: date and regularHours are required');
    expect(calculatedTimesheet({ id: 'tsh_1', employeeId: 'emp_1', version: 2, days: [{ ...day, overtime: { x: '1' } }] })).toBe('days.0.overtime');
  });
});

describe('usage flows and recommendation rules', () => {
  it('sums the depletion of sales as one flow, and tells opening balances from other adjustments', () => {
    expect(['sale', 'refund', 'void_reversal'].map((t) => flowOf(t as never, null))).toEqual(['sale', 'sale', 'sale']);
    expect(flowOf('adjustment', 'opening_balance')).toBe('opening');
    expect(flowOf('adjustment', 'lost')).toBe('adjustment');
    expect(flowOf('count_variance', null)).toBe('count');
    expect(flowOf('reservation', null)).toBeNull();
    expect(flowOf('release', null)).toBeNull();
  });

  const settings = { usageDays: 10, leadDays: 3, priceRisePercent: 5, varianceItems: 2 };

  it('reorders when stock runs out before the next delivery, else not', () => {
    const base = { locationId: 'loc_a', itemId: 'itm_a', itemName: 'Lemons', onHand: '10', used: new Decimal(50) };
    // 5 a day, the delivery in 3 days (lead time): 15 needed, 10 on hand
    expect(reorder(settings, '2026-11-20', { ...base, nextDelivery: null })).toMatchObject({ key: 'reorder|loc_a|itm_a', figures: { dailyUsage: '5', daysOfStock: '2', daysUntilDelivery: '3', leadTimeDays: '3', shortfall: '5' } });
    // an order expected tomorrow: 5 needed
    expect(reorder(settings, '2026-11-20', { ...base, nextDelivery: { date: '2026-11-21', orderId: 'po_1' } })).toBeNull();
    // nothing used: no rate, nothing to recommend
    expect(reorder(settings, '2026-11-20', { ...base, used: new Decimal(0), nextDelivery: null })).toBeNull();
  });

  it('flags a price rise beyond the threshold only', () => {
    const at = (unitCost: string, receiptId: string) => ({ unitCost, receiptId, day: '2026-11-20' });
    const x = { locationId: 'loc_a', supplierId: 'sup_a', itemId: 'itm_a', itemName: null };
    expect(priceRise(settings, { ...x, previous: at('2', 'prc_1'), last: at('2.1', 'prc_2') })).toBeNull(); // 5 %: not beyond
    expect(priceRise(settings, { ...x, previous: at('2', 'prc_1'), last: at('2.1002', 'prc_2') })).toMatchObject({ key: 'supplier_price_rise|loc_a|sup_a|itm_a|prc_2', figures: { risePercent: '5.01' } });
    expect(priceRise(settings, { ...x, previous: at('2', 'prc_1'), last: at('1.5', 'prc_2') })).toBeNull();
  });

  it('keeps the items whose usage departs most, either way', () => {
    const item = (itemId: string, theoretical: string, actual: string) => ({ locationId: 'loc_a', itemId, itemName: null, theoreticalCost: new Decimal(theoretical), actualCost: new Decimal(actual) });
    const found = largestVariances(settings, { from: '2026-11-10', to: '2026-11-19' }, [item('a', '10', '11'), item('b', '10', '4'), item('c', '10', '13'), item('d', '5', '5')]);
    expect(found.map((f) => [f.itemId, f.figures.varianceCost])).toEqual([['b', '-6.00'], ['c', '3.00']]);
  });

  it('staffs against the forecast hour by hour: over-staffed beyond the tolerance, within it nothing, off without a target', () => {
    // a UTC day whose forecast is 100.00 an hour from 10:00 to 13:00 (4 hours): 2 hours an hour at 50, 8 needed
    const forecast = { start: new Date('2026-12-02T00:00:00Z'), hours: Array.from({ length: 24 }, (_, h) => new Decimal(h >= 10 && h <= 13 ? 100 : 0)), total: new Decimal(400), fittedAt: new Date('2026-12-01T00:00:00Z') };
    const at = (from: string, to: string, paidHours: string) => ({ startsAt: new Date(`2026-12-02T${from}:00Z`), endsAt: new Date(`2026-12-02T${to}:00Z`), paidHours });
    const s = { ...settings, targetSplh: '50', staffingTolerancePercent: 10 };
    // three people 10:00–14:00 and one 14:00–16:00 with a paid break of 30 minutes (1.5 h spread over 2 h)
    const over = staffing(s, { locationId: 'loc_a', day: '2026-12-02', zone: 'UTC', forecast, shifts: [at('10:00', '14:00', '4'), at('10:00', '14:00', '4'), at('10:00', '14:00', '4'), at('14:00', '16:00', '1.5')] });
    // one too many each hour 10–13 (4 h) and 0.75 in 14 and 15: 5.50 over, more than 0.80 (10 % of 8)
    expect(over).toMatchObject({ key: 'staffing|loc_a|2026-12-02', kind: 'staffing', figures: { neededHours: '8.00', scheduledHours: '13.50', overStaffedHours: '5.50', underStaffedHours: '0.00', overStaffedAt: '10:00,11:00,12:00,13:00,14:00,15:00', underStaffedAt: null } });
    expect(over!.reasoning).toContain('over-staffed by 5.50 hours');
    // two people 10:00–14:00: exactly what is needed
    expect(staffing(s, { locationId: 'loc_a', day: '2026-12-02', zone: 'UTC', forecast, shifts: [at('10:00', '14:00', '4'), at('10:00', '14:00', '4')] })).toBeNull();
    expect(staffing({ ...s, targetSplh: null }, { locationId: 'loc_a', day: '2026-12-02', zone: 'UTC', forecast, shifts: [at('10:00', '11:00', '1')] })).toBeNull();
    // nothing published for the day: not scheduled yet
    expect(staffing(s, { locationId: 'loc_a', day: '2026-12-02', zone: 'UTC', forecast, shifts: [] })).toBeNull();
  });
});
