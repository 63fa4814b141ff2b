import { balanceAsOf, requestFits, requestHours, TimeOffInputError, type AccrualPolicy, type LedgerEntry } from '../src/time-off/accrual';

/** `count` local dates from `first`, `stepDays` apart (fixed calendar arithmetic, no clock). */
function dates(first: string, count: number, stepDays: number): string[] {
  const start = Date.UTC(Number(first.slice(0, 4)), Number(first.slice(5, 7)) - 1, Number(first.slice(8, 10)));
  return Array.from({ length: count }, (_, k) => new Date(start + k * stepDays * 86_400_000).toISOString().slice(0, 10));
}
const worked = (date: string, hours = '37.5'): LedgerEntry => ({ kind: 'worked', date, hours });

// 1 h per 30 h worked: a 37.5-hour week earns exactly 1.25 h
const PER_HOUR: AccrualPolicy = { accrual: { kind: 'per_hour_worked', hours: '1', per: '30' }, cap: '40', carryOver: '16' };
const PER_PERIOD: AccrualPolicy = { accrual: { kind: 'per_pay_period', hours: '3.08' }, cap: null, carryOver: null };

describe('time off: accrual over a year with a fixed calendar (2026 → 2027)', () => {
  // 2026-01-02 is the first Friday of 2026, 2026-12-25 the 52nd; 2027-01-01 and 2027-01-08 are Fridays too
  const fridays2026 = dates('2026-01-02', 52, 7);
  const ledger: LedgerEntry[] = [
    ...fridays2026.map((d) => worked(d)),
    { kind: 'taken', date: '2026-08-24', hours: '16', requestId: 'req_summer' },
    worked('2027-01-01'),
    worked('2027-01-08'),
  ];

  it('accrues 1.25 h a week and reaches the cap of 40 on the 32nd Friday, 2026-08-07', () => {
    expect(fridays2026[31]).toBe('2026-08-07');
    const b = balanceAsOf(PER_HOUR, ledger, '2026-08-07');
    expect(b).toMatchObject({ balance: '40', accrued: '40', taken: '0', adjusted: '0', forfeited: '0' });
    expect(b.movements).toHaveLength(32);
    expect(b.movements[0]).toEqual({ date: '2026-01-02', kind: 'accrued', hours: '1.25', balanceAfter: '1.25' });
    expect(b.movements[31]).toEqual({ date: '2026-08-07', kind: 'accrued', hours: '1.25', balanceAfter: '40' });
  });

  it('at the cap nothing accrues (2026-08-14 and 08-21 add no movement)', () => {
    const b = balanceAsOf(PER_HOUR, ledger, '2026-08-21');
    expect(b).toMatchObject({ balance: '40', accrued: '40' });
    expect(b.movements).toHaveLength(32);
  });

  it('16 h taken on 2026-08-24 make room; accrual resumes and stops again at the cap, the last step only partly', () => {
    expect(balanceAsOf(PER_HOUR, ledger, '2026-08-24')).toMatchObject({ balance: '24', accrued: '40', taken: '16' });
    // 12 Fridays 2026-08-28 … 2026-11-13: 24 + 12 × 1.25 = 39
    expect(balanceAsOf(PER_HOUR, ledger, '2026-11-13').balance).toBe('39');
    const nov20 = balanceAsOf(PER_HOUR, ledger, '2026-11-20');
    expect(nov20.movements.at(-1)).toEqual({ date: '2026-11-20', kind: 'accrued', hours: '1', balanceAfter: '40' });
    const yearEnd = balanceAsOf(PER_HOUR, ledger, '2026-12-31');
    // accrued 40 + 15 + 1 = 56, taken 16: 40 at year end, no forfeiture before the boundary
    expect(yearEnd).toMatchObject({ balance: '40', accrued: '56', taken: '16', adjusted: '0', forfeited: '0' });
    expect(yearEnd.movements).toHaveLength(32 + 1 + 13);
  });

  it('at 2027-01-01 at most 16 h carry over: 24 h forfeited, then that day\'s accrual', () => {
    const b = balanceAsOf(PER_HOUR, ledger, '2027-01-01');
    expect(b).toMatchObject({ balance: '17.25', accrued: '57.25', taken: '16', forfeited: '24' });
    expect(b.movements.slice(-2)).toEqual([
      { date: '2027-01-01', kind: 'forfeited', hours: '-24', balanceAfter: '16' },
      { date: '2027-01-01', kind: 'accrued', hours: '1.25', balanceAfter: '17.25' },
    ]);
    // 58.5 accrued − 16 taken + 0 adjusted − 24 forfeited = 18.5
    expect(balanceAsOf(PER_HOUR, ledger, '2027-01-08')).toMatchObject({ balance: '18.5', accrued: '58.5', taken: '16', adjusted: '0', forfeited: '24' });
  });

  it('the answer does not depend on the order the ledger is given in', () => {
    expect(balanceAsOf(PER_HOUR, [...ledger].reverse(), '2027-01-08')).toEqual(balanceAsOf(PER_HOUR, ledger, '2027-01-08'));
  });
});

describe('time off: carry-over at the year boundary', () => {
  const policy: AccrualPolicy = { ...PER_PERIOD, carryOver: '5' };
  const ledger: LedgerEntry[] = [
    { kind: 'adjustment', date: '2026-12-01', hours: '+6.5', reason: 'opening balance from the previous HR tool' },
    { kind: 'period_end', date: '2026-12-04' }, // 9.58
    { kind: 'period_end', date: '2026-12-18' }, // 12.66
    { kind: 'taken', date: '2026-12-21', hours: '4', requestId: 'req_1' }, // 8.66
  ];

  it('forfeits the excess over the carry-over on the new year\'s first day, even with no entry in the new year', () => {
    expect(balanceAsOf(policy, ledger, '2026-12-31').balance).toBe('8.66');
    const b = balanceAsOf(policy, ledger, '2027-02-01');
    expect(b).toEqual({
      balance: '5',
      accrued: '6.16',
      taken: '4',
      adjusted: '6.5',
      forfeited: '3.66',
      movements: [
        { date: '2026-12-01', kind: 'adjustment', hours: '6.5', balanceAfter: '6.5', reason: 'opening balance from the previous HR tool' },
        { date: '2026-12-04', kind: 'accrued', hours: '3.08', balanceAfter: '9.58' },
        { date: '2026-12-18', kind: 'accrued', hours: '3.08', balanceAfter: '12.66' },
        { date: '2026-12-21', kind: 'taken', hours: '-4', balanceAfter: '8.66', requestId: 'req_1' },
        { date: '2027-01-01', kind: 'forfeited', hours: '-3.66', balanceAfter: '5' },
      ],
    });
  });

  it('a later boundary with the balance within the carry-over forfeits nothing more', () => {
    const b = balanceAsOf(policy, [...ledger, { kind: 'adjustment', date: '2028-03-01', hours: '1', reason: 'correction' }], '2028-06-01');
    expect(b).toMatchObject({ balance: '6', forfeited: '3.66' });
    expect(b.movements.filter((m) => m.kind === 'forfeited')).toHaveLength(1);
  });

  it('carry-over null keeps everything; carry-over 0 forfeits everything', () => {
    expect(balanceAsOf({ ...policy, carryOver: null }, ledger, '2027-02-01')).toMatchObject({ balance: '8.66', forfeited: '0' });
    expect(balanceAsOf({ ...policy, carryOver: '0' }, ledger, '2027-02-01')).toMatchObject({ balance: '0', forfeited: '8.66' });
  });

  it('a negative balance carries into the new year as is', () => {
    const none: AccrualPolicy = { accrual: { kind: 'none' }, cap: null, carryOver: '5' };
    const b = balanceAsOf(
      none,
      [
        { kind: 'adjustment', date: '2026-11-02', hours: '2', reason: 'opening balance' },
        { kind: 'taken', date: '2026-12-14', hours: '5', requestId: 'req_2' },
      ],
      '2027-01-05',
    );
    expect(b).toMatchObject({ balance: '-3', forfeited: '0' });
    expect(b.movements.map((m) => m.kind)).toEqual(['adjustment', 'taken']);
  });
});

describe('time off: accrual per pay period', () => {
  // 26 biweekly period ends: Fridays 2026-01-09 … 2026-12-25
  const periodEnds = dates('2026-01-09', 26, 14);
  const ledger: LedgerEntry[] = [...periodEnds.map((date): LedgerEntry => ({ kind: 'period_end', date })), worked('2026-03-06', '40')];

  it('earns 3.08 h at each of 26 period ends: 80.08 h in 2026; worked hours earn nothing', () => {
    expect(periodEnds[25]).toBe('2026-12-25');
    const b = balanceAsOf(PER_PERIOD, ledger, '2026-12-31');
    expect(b).toMatchObject({ balance: '80.08', accrued: '80.08' });
    expect(b.movements).toHaveLength(26);
    expect(balanceAsOf(PER_PERIOD, ledger, '2026-06-30').balance).toBe('40.04'); // 13 period ends by 2026-06-26
  });

  it('with a cap of 80 the 26th period end adds only 3 h', () => {
    const b = balanceAsOf({ ...PER_PERIOD, cap: '80' }, ledger, '2026-12-31');
    expect(b).toMatchObject({ balance: '80', accrued: '80' });
    expect(b.movements.at(-2)).toEqual({ date: '2026-12-11', kind: 'accrued', hours: '3.08', balanceAfter: '77' });
    expect(b.movements.at(-1)).toEqual({ date: '2026-12-25', kind: 'accrued', hours: '3', balanceAfter: '80' });
  });
});

describe('time off: adjustments, requests taken and restored, order within a day', () => {
  it('adjustments carry their reason and may pass the cap; above the cap nothing accrues and nothing is removed', () => {
    const b = balanceAsOf(
      PER_HOUR,
      [
        { kind: 'adjustment', date: '2026-03-02', hours: '+45', reason: 'opening balance imported from the HR tool' },
        worked('2026-03-06'),
        { kind: 'adjustment', date: '2026-03-09', hours: '-2.5', reason: 'correction: holiday counted twice' },
        worked('2026-03-13'),
        { kind: 'taken', date: '2026-03-16', hours: '8', requestId: 'req_3' },
        worked('2026-03-20'),
      ],
      '2026-03-31',
    );
    expect(b).toEqual({
      balance: '35.75',
      accrued: '1.25',
      taken: '8',
      adjusted: '42.5',
      forfeited: '0',
      movements: [
        { date: '2026-03-02', kind: 'adjustment', hours: '45', balanceAfter: '45', reason: 'opening balance imported from the HR tool' },
        { date: '2026-03-09', kind: 'adjustment', hours: '-2.5', balanceAfter: '42.5', reason: 'correction: holiday counted twice' },
        { date: '2026-03-16', kind: 'taken', hours: '-8', balanceAfter: '34.5', requestId: 'req_3' },
        { date: '2026-03-20', kind: 'accrued', hours: '1.25', balanceAfter: '35.75' },
      ],
    });
  });

  it('a cancelled approved request is restored: taken counts net of restored', () => {
    const b = balanceAsOf(
      PER_HOUR,
      [
        { kind: 'adjustment', date: '2026-04-01', hours: '20', reason: 'opening balance' },
        { kind: 'restored', date: '2026-04-10', hours: '8', requestId: 'req_a' }, // given before its taken entry on purpose
        { kind: 'taken', date: '2026-04-10', hours: '8', requestId: 'req_a' },
        { kind: 'taken', date: '2026-04-13', hours: '4', requestId: 'req_b' },
      ],
      '2026-04-30',
    );
    expect(b).toMatchObject({ balance: '16', taken: '4', adjusted: '20' });
    expect(b.movements).toEqual([
      { date: '2026-04-01', kind: 'adjustment', hours: '20', balanceAfter: '20', reason: 'opening balance' },
      { date: '2026-04-10', kind: 'taken', hours: '-8', balanceAfter: '12', requestId: 'req_a' },
      { date: '2026-04-10', kind: 'restored', hours: '8', balanceAfter: '20', requestId: 'req_a' },
      { date: '2026-04-13', kind: 'taken', hours: '-4', balanceAfter: '16', requestId: 'req_b' },
    ]);
  });

  it('refuses to restore more than was taken for the request', () => {
    const taken: LedgerEntry = { kind: 'taken', date: '2026-04-10', hours: '8', requestId: 'req_a' };
    expect(() => balanceAsOf(PER_HOUR, [taken, { kind: 'restored', date: '2026-04-10', hours: '9', requestId: 'req_a' }], '2026-04-30')).toThrow(/entries\[1\]\.hours: restores 9 h of req_a, which has 8 h taken/);
    expect(() => balanceAsOf(PER_HOUR, [taken, { kind: 'restored', date: '2026-04-10', hours: '1', requestId: 'req_x' }], '2026-04-30')).toThrow(TimeOffInputError);
  });

  it('within one date: adjustment, then accrual, then taken — whatever the input order', () => {
    // adjustment first leaves 0.5 h of room under the cap, the accrual fills it, then 8 h are taken
    const b = balanceAsOf(
      PER_HOUR,
      [
        { kind: 'taken', date: '2026-05-01', hours: '8', requestId: 'req_4' },
        worked('2026-05-01'),
        { kind: 'adjustment', date: '2026-05-01', hours: '39.5', reason: 'opening balance' },
      ],
      '2026-05-01',
    );
    expect(b.movements.map((m) => [m.kind, m.hours, m.balanceAfter])).toEqual([
      ['adjustment', '39.5', '39.5'],
      ['accrued', '0.5', '40'],
      ['taken', '-8', '32'],
    ]);
    // in input order it would be −8, +1.25, +39.5 = 32.75
    expect(b.balance).toBe('32');
  });
});

describe('time off: balance as of a date', () => {
  const ledger: LedgerEntry[] = [
    { kind: 'adjustment', date: '2026-02-02', hours: '10', reason: 'opening balance' },
    worked('2026-02-06'),
    { kind: 'taken', date: '2026-02-09', hours: '3', requestId: 'req_5' },
    worked('2026-02-13'),
  ];

  it('ignores entries after asOf, and counts those on asOf', () => {
    expect(balanceAsOf(PER_HOUR, ledger, '2026-02-08')).toMatchObject({ balance: '11.25', taken: '0' });
    expect(balanceAsOf(PER_HOUR, ledger, '2026-02-09')).toMatchObject({ balance: '8.25', taken: '3' });
    expect(balanceAsOf(PER_HOUR, ledger, '2026-02-13').balance).toBe('9.5');
  });

  it('before the first entry everything is zero', () => {
    expect(balanceAsOf(PER_HOUR, ledger, '2026-01-31')).toEqual({ balance: '0', accrued: '0', taken: '0', adjusted: '0', forfeited: '0', movements: [] });
  });
});

describe('time off: a policy year starting on 07-01', () => {
  const policy: AccrualPolicy = { accrual: { kind: 'per_hour_worked', hours: '1', per: '30' }, cap: null, carryOver: '8', yearStart: '07-01' };
  const ledger: LedgerEntry[] = [
    { kind: 'adjustment', date: '2026-03-02', hours: '20', reason: 'opening balance' },
    worked('2026-06-26'), // 21.25
    worked('2026-07-03'),
  ];

  it('forfeits at 2026-07-01, not at 2027-01-01, and again at 2027-07-01', () => {
    const july = balanceAsOf(policy, ledger, '2026-07-03');
    expect(july).toMatchObject({ balance: '9.25', forfeited: '13.25' });
    expect(july.movements.slice(-2)).toEqual([
      { date: '2026-07-01', kind: 'forfeited', hours: '-13.25', balanceAfter: '8' },
      { date: '2026-07-03', kind: 'accrued', hours: '1.25', balanceAfter: '9.25' },
    ]);
    expect(balanceAsOf(policy, ledger, '2027-01-15')).toMatchObject({ balance: '9.25', forfeited: '13.25' });
    expect(balanceAsOf(policy, ledger, '2027-06-30').balance).toBe('9.25');
    const next = balanceAsOf(policy, ledger, '2027-07-01');
    expect(next).toMatchObject({ balance: '8', forfeited: '14.5' });
    expect(next.movements.at(-1)).toEqual({ date: '2027-07-01', kind: 'forfeited', hours: '-1.25', balanceAfter: '8' });
  });
});

describe('time off: arithmetic', () => {
  it('rounds each accrual half up to 4 decimals', () => {
    // 40 / 30 = 1.33333… → 1.3333, three times: 3.9999 (not 4)
    expect(balanceAsOf(PER_HOUR, [worked('2026-01-02', '40'), worked('2026-01-09', '40'), worked('2026-01-16', '40')], '2026-01-31').balance).toBe('3.9999');
    // 1 / 32 = 0.03125 → 0.0313
    const small: AccrualPolicy = { accrual: { kind: 'per_hour_worked', hours: '1', per: '32' }, cap: null, carryOver: null };
    expect(balanceAsOf(small, [worked('2026-01-02', '1')], '2026-01-02').balance).toBe('0.0313');
  });

  it('a policy without accrual never accrues', () => {
    const none: AccrualPolicy = { accrual: { kind: 'none' }, cap: null, carryOver: null };
    const b = balanceAsOf(none, [worked('2026-01-02', '40'), { kind: 'period_end', date: '2026-01-09' }, { kind: 'adjustment', date: '2026-01-12', hours: '3', reason: 'granted' }], '2026-12-31');
    expect(b).toMatchObject({ balance: '3', accrued: '0', adjusted: '3' });
    expect(b.movements).toHaveLength(1);
  });

  it('prints plain decimals without trailing zeros and never -0', () => {
    const b = balanceAsOf(
      PER_PERIOD,
      [
        { kind: 'adjustment', date: '2026-01-05', hours: '2.50', reason: 'granted' },
        { kind: 'adjustment', date: '2026-01-06', hours: '-2.5', reason: 'granted by mistake' },
      ],
      '2026-01-31',
    );
    expect(b).toMatchObject({ balance: '0', adjusted: '0' });
    expect(b.movements.map((m) => m.hours)).toEqual(['2.5', '-2.5']);
    expect(b.movements[1].balanceAfter).toBe('0');
  });
});

describe('time off: bad input', () => {
  const ok: LedgerEntry = { kind: 'worked', date: '2026-01-02', hours: '8' };
  const cases: Array<[string, AccrualPolicy, LedgerEntry[], string, RegExp]> = [
    ['an impossible date', PER_HOUR, [{ ...ok, date: '2026-02-30' }], '2026-12-31', /entries\[0\]\.date: expected a calendar date YYYY-MM-DD, got "2026-02-30"/],
    ['a date in another format', PER_HOUR, [{ ...ok, date: '02/01/2026' }], '2026-12-31', /entries\[0\]\.date/],
    ['an invalid asOf', PER_HOUR, [ok], '2026-13-01', /asOf: expected a calendar date/],
    ['non-decimal hours', PER_HOUR, [{ ...ok, hours: 'eight' }], '2026-12-31', /entries\[0\]\.hours: expected a decimal string of hours, got "eight"/],
    ['float-like hours in exponent notation', PER_HOUR, [{ ...ok, hours: '1e2' }], '2026-12-31', /entries\[0\]\.hours/],
    ['negative hours worked', PER_HOUR, [{ ...ok, hours: '-1' }], '2026-12-31', /entries\[0\]\.hours: must not be negative/],
    ['more than 4 decimals taken', PER_HOUR, [{ kind: 'taken', date: '2026-01-02', hours: '1.00001', requestId: 'req_6' }], '2026-12-31', /at most 4 decimals/],
    ['an adjustment without a reason', PER_HOUR, [{ kind: 'adjustment', date: '2026-01-02', hours: '1', reason: ' ' }], '2026-12-31', /entries\[0\]\.reason: an adjustment needs a reason/],
    ['taken without a request', PER_HOUR, [{ kind: 'taken', date: '2026-01-02', hours: '1', requestId: '' }], '2026-12-31', /entries\[0\]\.requestId/],
    ['per 0', { ...PER_HOUR, accrual: { kind: 'per_hour_worked', hours: '1', per: '0' } }, [ok], '2026-12-31', /policy\.accrual\.per: must be greater than 0, got 0/],
    ['per negative', { ...PER_HOUR, accrual: { kind: 'per_hour_worked', hours: '1', per: '-30' } }, [ok], '2026-12-31', /policy\.accrual\.per: must be greater than 0/],
    ['a negative cap', { ...PER_HOUR, cap: '-1' }, [ok], '2026-12-31', /policy\.cap: must not be negative/],
    ['a numeric carry-over', { ...PER_HOUR, carryOver: 16 as unknown as string }, [ok], '2026-12-31', /policy\.carryOver: expected a decimal string/],
    ['a year starting on 02-29', { ...PER_HOUR, yearStart: '02-29' }, [ok], '2026-12-31', /policy\.yearStart/],
    ['an unknown accrual kind', { ...PER_HOUR, accrual: { kind: 'per_day' } as unknown as AccrualPolicy['accrual'] }, [ok], '2026-12-31', /policy\.accrual\.kind/],
    ['a bad entry after asOf', PER_HOUR, [ok, { ...ok, date: '2027-02-31' }], '2026-12-31', /entries\[1\]\.date/],
  ];
  it.each(cases)('throws on %s', (_name, policy, entries, asOf, message) => {
    expect(() => balanceAsOf(policy, entries, asOf)).toThrow(TimeOffInputError);
    expect(() => balanceAsOf(policy, entries, asOf)).toThrow(message);
  });

  it('names the field in the error', () => {
    try {
      balanceAsOf(PER_HOUR, [ok, { ...ok, hours: 'x' }], '2026-12-31');
      throw new Error('expected a TimeOffInputError');
    } catch (e) {
      expect(e).toBeInstanceOf(TimeOffInputError);
      expect((e as TimeOffInputError).path).toBe('entries[1].hours');
    }
  });
});

describe('time off: request hours', () => {
  it('counts workdays inclusive: Wed 2026-03-04 to Fri 2026-03-06 at 8 h is 24 h', () => {
    expect(requestHours('2026-03-04', '2026-03-06', '8')).toBe('24');
  });

  it('skips the weekend by default: Fri 2026-03-06 to Mon 2026-03-09 is 2 days', () => {
    expect(requestHours('2026-03-06', '2026-03-09', '8')).toBe('16');
    expect(requestHours('2026-03-07', '2026-03-08', '8')).toBe('0');
  });

  it('takes the employee\'s own working week (Wednesday to Sunday)', () => {
    expect(requestHours('2026-03-06', '2026-03-09', '7.5', null, [3, 4, 5, 6, 7])).toBe('22.5');
  });

  it('a partial day is the hours given', () => {
    expect(requestHours('2026-03-04', '2026-03-04', '8', '4.5')).toBe('4.5');
    expect(requestHours('2026-03-04', '2026-03-04', '8', null)).toBe('8');
  });

  it('throws on bad input', () => {
    expect(() => requestHours('2026-03-06', '2026-03-04', '8')).toThrow(/endDate: 2026-03-04 is before startDate 2026-03-06/);
    expect(() => requestHours('2026-03-04', '2026-03-05', '8', '4')).toThrow(/partialHours: partial-day hours need startDate and endDate to be the same day/);
    expect(() => requestHours('2026-03-04', '2026-03-04', '8', '0')).toThrow(/partialHours: must be greater than 0/);
    expect(() => requestHours('2026-02-29', '2026-03-04', '8')).toThrow(/startDate/);
    expect(() => requestHours('2026-03-04', '2026-03-06', '0')).toThrow(/hoursPerDay: must be greater than 0/);
    expect(() => requestHours('2026-03-04', '2026-03-06', '8', null, [0, 8])).toThrow(/workdays/);
  });
});

describe('time off: does a request fit', () => {
  it('needs the balance to cover it unless negative balances are allowed', () => {
    expect(requestFits('16', '16', false)).toBe(true);
    expect(requestFits('16', '16.5', false)).toBe(false);
    expect(requestFits('16', '16.5', true)).toBe(true);
    expect(requestFits('-2', '1', false)).toBe(false);
    expect(requestFits('-2', '1', true)).toBe(true);
    expect(requestFits('0', '0', false)).toBe(true);
  });

  it('throws on bad input', () => {
    expect(() => requestFits('ten', '1', true)).toThrow(/balance: expected a decimal string/);
    expect(() => requestFits('10', '-1', false)).toThrow(/hours: must not be negative/);
  });
});
