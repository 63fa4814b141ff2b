import {
  localDateOf,
  nextPeriod,
  periodBounds,
  periodContaining,
  periodPhase,
  periodsOverlapping,
  previousPeriod,
  type PayPeriodFrequency,
  type PeriodDates,
} from '../src/pay-periods/calendar';

const HOUR = 3_600_000;
const period = (start: string, end: string): PeriodDates => ({ start, end });
const hours = ({ from, to }: { from: Date; to: Date }) => (to.getTime() - from.getTime()) / HOUR;

// 2026-01-05 is a Monday
const MONDAY = '2026-01-05';

describe('periodContaining: weekly', () => {
  it.each([
    ['on the anchor', '2026-01-05', period('2026-01-05', '2026-01-11')],
    ['the last day of the anchor period', '2026-01-11', period('2026-01-05', '2026-01-11')],
    ['after the anchor', '2026-03-10', period('2026-03-09', '2026-03-15')],
    ['the day before the anchor, across the year boundary', '2026-01-04', period('2025-12-29', '2026-01-04')],
    ['long before the anchor (leap day 2024)', '2024-02-29', period('2024-02-26', '2024-03-03')],
    ['the year end after the anchor', '2026-12-31', period('2026-12-28', '2027-01-03')],
  ])('%s: %s', (_label, date, expected) => {
    expect(periodContaining(date, 'weekly', MONDAY)).toEqual(expected);
  });
});

describe('periodContaining: biweekly', () => {
  it.each([
    ['on the anchor', '2026-01-05', period('2026-01-05', '2026-01-18')],
    ['the last day of the anchor period', '2026-01-18', period('2026-01-05', '2026-01-18')],
    ['the first day of the next period', '2026-01-19', period('2026-01-19', '2026-02-01')],
    ['the day before the anchor, across the year boundary', '2026-01-04', period('2025-12-22', '2026-01-04')],
    ['two periods before the anchor', '2025-12-21', period('2025-12-08', '2025-12-21')],
    ['the year end after the anchor', '2026-12-31', period('2026-12-21', '2027-01-03')],
  ])('%s: %s', (_label, date, expected) => {
    expect(periodContaining(date, 'biweekly', MONDAY)).toEqual(expected);
  });
});

describe('periodContaining: semimonthly', () => {
  it.each([
    ['the 1st', '2026-01-01', period('2026-01-01', '2026-01-15')],
    ['the 15th', '2026-01-15', period('2026-01-01', '2026-01-15')],
    ['the 16th', '2026-01-16', period('2026-01-16', '2026-01-31')],
    ['February, common year', '2026-02-20', period('2026-02-16', '2026-02-28')],
    ['February 16th, leap year', '2028-02-16', period('2028-02-16', '2028-02-29')],
    ['leap day', '2028-02-29', period('2028-02-16', '2028-02-29')],
    ['a 30-day month', '2026-04-30', period('2026-04-16', '2026-04-30')],
    ['before the anchor, at the year end', '2025-12-31', period('2025-12-16', '2025-12-31')],
  ])('%s: %s', (_label, date, expected) => {
    expect(periodContaining(date, 'semimonthly', MONDAY)).toEqual(expected);
  });

  it('ignores the anchor date', () => {
    expect(periodContaining('2026-02-20', 'semimonthly', '2019-07-23')).toEqual(period('2026-02-16', '2026-02-28'));
  });
});

describe('periodContaining: monthly', () => {
  it.each([
    ['on the anchor', '2026-01-31', period('2026-01-31', '2026-02-27')],
    ['the day before February\'s last day', '2026-02-27', period('2026-01-31', '2026-02-27')],
    ['February\'s last day starts a period', '2026-02-28', period('2026-02-28', '2026-03-30')],
    ['March 30th', '2026-03-30', period('2026-02-28', '2026-03-30')],
    ['March 31st', '2026-03-31', period('2026-03-31', '2026-04-29')],
    ['April\'s last day', '2026-04-30', period('2026-04-30', '2026-05-30')],
    ['the day before the anchor', '2026-01-30', period('2025-12-31', '2026-01-30')],
    ['before the anchor, November has 30 days', '2025-12-01', period('2025-11-30', '2025-12-30')],
    ['leap-year February 28th', '2028-02-28', period('2028-01-31', '2028-02-28')],
    ['leap day', '2028-02-29', period('2028-02-29', '2028-03-30')],
  ])('anchor on the 31st, %s: %s', (_label, date, expected) => {
    expect(periodContaining(date, 'monthly', '2026-01-31')).toEqual(expected);
  });

  it.each([
    ['common year', '2026-02-28', period('2026-02-28', '2026-03-29')],
    ['leap year', '2028-02-29', period('2028-02-29', '2028-03-29')],
    ['leap year, the day before', '2028-02-28', period('2028-01-30', '2028-02-28')],
  ])('anchor on the 30th, %s: %s', (_label, date, expected) => {
    expect(periodContaining(date, 'monthly', '2026-01-30')).toEqual(expected);
  });

  it.each([
    ['common-year February', '2026-02-10', period('2026-02-01', '2026-02-28')],
    ['leap-year February', '2028-02-10', period('2028-02-01', '2028-02-29')],
    ['before the anchor', '2025-12-31', period('2025-12-01', '2025-12-31')],
    ['on the anchor', '2026-01-01', period('2026-01-01', '2026-01-31')],
  ])('anchor on the 1st gives calendar months, %s: %s', (_label, date, expected) => {
    expect(periodContaining(date, 'monthly', '2026-01-01')).toEqual(expected);
  });

  it.each([
    ['the day before the anchor', '2026-01-14', period('2025-12-15', '2026-01-14')],
    ['on the anchor', '2026-01-15', period('2026-01-15', '2026-02-14')],
    ['across the year boundary', '2026-12-20', period('2026-12-15', '2027-01-14')],
  ])('anchor mid-month, %s: %s', (_label, date, expected) => {
    expect(periodContaining(date, 'monthly', '2026-01-15')).toEqual(expected);
  });
});

describe('periodsOverlapping', () => {
  it('semimonthly over two months and a bit', () => {
    expect(periodsOverlapping('2026-01-10', '2026-03-05', 'semimonthly', MONDAY)).toEqual([
      period('2026-01-01', '2026-01-15'),
      period('2026-01-16', '2026-01-31'),
      period('2026-02-01', '2026-02-15'),
      period('2026-02-16', '2026-02-28'),
      period('2026-03-01', '2026-03-15'),
    ]);
  });

  it('weekly across the year boundary, including the partly covered first and last periods', () => {
    expect(periodsOverlapping('2025-12-30', '2026-01-20', 'weekly', MONDAY)).toEqual([
      period('2025-12-29', '2026-01-04'),
      period('2026-01-05', '2026-01-11'),
      period('2026-01-12', '2026-01-18'),
      period('2026-01-19', '2026-01-25'),
    ]);
  });

  it('monthly, anchor on the 31st, a range that is exactly three periods', () => {
    expect(periodsOverlapping('2026-01-31', '2026-04-29', 'monthly', '2026-01-31')).toEqual([
      period('2026-01-31', '2026-02-27'),
      period('2026-02-28', '2026-03-30'),
      period('2026-03-31', '2026-04-29'),
    ]);
  });

  it('a single day gives its one period', () => {
    expect(periodsOverlapping('2026-01-18', '2026-01-18', 'biweekly', MONDAY)).toEqual([period('2026-01-05', '2026-01-18')]);
  });

  it('rejects a range that ends before it starts', () => {
    expect(() => periodsOverlapping('2026-02-01', '2026-01-31', 'weekly', MONDAY)).toThrow('from 2026-02-01 is after to 2026-01-31');
  });
});

describe('nextPeriod / previousPeriod', () => {
  it('monthly with the anchor on the 31st', () => {
    expect(nextPeriod(period('2026-01-31', '2026-02-27'), 'monthly', '2026-01-31')).toEqual(period('2026-02-28', '2026-03-30'));
    expect(previousPeriod(period('2026-02-28', '2026-03-30'), 'monthly', '2026-01-31')).toEqual(period('2026-01-31', '2026-02-27'));
  });

  it('biweekly around the anchor and the year boundary', () => {
    expect(nextPeriod(period('2025-12-22', '2026-01-04'), 'biweekly', MONDAY)).toEqual(period('2026-01-05', '2026-01-18'));
    expect(previousPeriod(period('2025-12-22', '2026-01-04'), 'biweekly', MONDAY)).toEqual(period('2025-12-08', '2025-12-21'));
  });

  it('semimonthly across the year end and into a leap-year February', () => {
    expect(nextPeriod(period('2026-12-16', '2026-12-31'), 'semimonthly', MONDAY)).toEqual(period('2027-01-01', '2027-01-15'));
    expect(previousPeriod(period('2028-03-01', '2028-03-15'), 'semimonthly', MONDAY)).toEqual(period('2028-02-16', '2028-02-29'));
  });

  it('weekly', () => {
    expect(nextPeriod(period('2026-12-28', '2027-01-03'), 'weekly', MONDAY)).toEqual(period('2027-01-04', '2027-01-10'));
    expect(previousPeriod(period('2026-01-05', '2026-01-11'), 'weekly', MONDAY)).toEqual(period('2025-12-29', '2026-01-04'));
  });

  it.each<[PayPeriodFrequency, string]>([
    ['weekly', MONDAY],
    ['biweekly', MONDAY],
    ['semimonthly', MONDAY],
    ['monthly', '2026-01-31'],
    ['monthly', '2026-01-29'],
  ])('%s (anchor %s): 60 periods forward then 60 back returns to the start, with no gaps or overlaps', (frequency, anchor) => {
    const first = periodContaining('2027-06-15', frequency, anchor);
    let p = first;
    for (let i = 0; i < 60; i++) {
      const next = nextPeriod(p, frequency, anchor);
      expect(next.start).toBe(dayAfter(p.end));
      expect(previousPeriod(next, frequency, anchor)).toEqual(p);
      p = next;
    }
    for (let i = 0; i < 60; i++) p = previousPeriod(p, frequency, anchor);
    expect(p).toEqual(first);
  });

  it('rejects a period that is not one of the calendar\'s', () => {
    expect(() => nextPeriod(period('2026-01-06', '2026-01-12'), 'weekly', MONDAY)).toThrow('2026-01-06..2026-01-12 is not a weekly period for anchor 2026-01-05');
    expect(() => previousPeriod(period('2026-01-01', '2026-01-31'), 'semimonthly', MONDAY)).toThrow('not a semimonthly period');
  });
});

describe('localDateOf', () => {
  it.each([
    ['New York, winter, last ms of the day', '2026-01-15T04:59:59.999Z', 'America/New_York', '2026-01-14'],
    ['New York, winter, local midnight', '2026-01-15T05:00:00.000Z', 'America/New_York', '2026-01-15'],
    ['New York, summer, a second before midnight', '2026-07-04T03:59:59.000Z', 'America/New_York', '2026-07-03'],
    ['New York, summer, local midnight', '2026-07-04T04:00:00.000Z', 'America/New_York', '2026-07-04'],
    ['Auckland, summer (+13), a second before the new year', '2025-12-31T10:59:59.000Z', 'Pacific/Auckland', '2025-12-31'],
    ['Auckland, summer (+13), new year local midnight', '2025-12-31T11:00:00.000Z', 'Pacific/Auckland', '2026-01-01'],
    ['Auckland, winter (+12), a second before midnight', '2026-07-14T11:59:59.000Z', 'Pacific/Auckland', '2026-07-14'],
    ['Auckland, winter (+12), local midnight', '2026-07-14T12:00:00.000Z', 'Pacific/Auckland', '2026-07-15'],
  ])('%s: %s in %s → %s', (_label, instant, zone, expected) => {
    expect(localDateOf(new Date(instant), zone)).toBe(expected);
  });

  it('the same instant is a different date on either side of the date line', () => {
    const instant = new Date('2026-03-01T12:30:00.000Z');
    expect(localDateOf(instant, 'America/New_York')).toBe('2026-03-01');
    expect(localDateOf(instant, 'Pacific/Auckland')).toBe('2026-03-02');
  });
});

describe('periodBounds', () => {
  it('a weekly period containing the US spring-forward day (2026-03-08) is 7 × 24 − 1 hours', () => {
    const p = periodContaining('2026-03-08', 'weekly', MONDAY);
    expect(p).toEqual(period('2026-03-02', '2026-03-08'));
    const bounds = periodBounds(p, 'America/New_York');
    expect(bounds.from.toISOString()).toBe('2026-03-02T05:00:00.000Z');
    expect(bounds.to.toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect(hours(bounds)).toBe(7 * 24 - 1);
  });

  it('a weekly period containing the US fall-back day (2026-11-01) is 7 × 24 + 1 hours', () => {
    const bounds = periodBounds(period('2026-10-26', '2026-11-01'), 'America/New_York');
    expect(bounds.from.toISOString()).toBe('2026-10-26T04:00:00.000Z');
    expect(bounds.to.toISOString()).toBe('2026-11-02T05:00:00.000Z');
    expect(hours(bounds)).toBe(7 * 24 + 1);
  });

  it('a semimonthly period in Auckland starts at local midnight (+13)', () => {
    const bounds = periodBounds(period('2026-01-01', '2026-01-15'), 'Pacific/Auckland');
    expect(bounds.from.toISOString()).toBe('2025-12-31T11:00:00.000Z');
    expect(bounds.to.toISOString()).toBe('2026-01-15T11:00:00.000Z');
  });

  it('a repeated midnight (Havana falls back from 01:00 to 00:00 on 2026-11-01) starts the day at its first pass', () => {
    const bounds = periodBounds(period('2026-11-01', '2026-11-01'), 'America/Havana');
    expect(bounds.from.toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(bounds.to.toISOString()).toBe('2026-11-02T05:00:00.000Z');
    expect(hours(bounds)).toBe(25);
  });

  it('a skipped midnight (Santiago springs from 00:00 to 01:00 on 2026-09-06) starts the day at the change', () => {
    const bounds = periodBounds(period('2026-09-06', '2026-09-06'), 'America/Santiago');
    expect(bounds.from.toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(bounds.to.toISOString()).toBe('2026-09-07T03:00:00.000Z');
    expect(hours(bounds)).toBe(23);
  });

  it.each([
    ['America/New_York', period('2026-03-02', '2026-03-08')],
    ['America/New_York', period('2026-10-26', '2026-11-01')],
    ['America/Havana', period('2026-11-01', '2026-11-01')],
    ['America/Santiago', period('2026-09-06', '2026-09-06')],
    ['Pacific/Auckland', period('2026-04-01', '2026-04-15')],
  ])('%s %o: the bounds agree with localDateOf on both edges', (zone, p) => {
    const { from, to } = periodBounds(p, zone);
    expect(localDateOf(new Date(from.getTime() - 1), zone)).toBe(dayBefore(p.start));
    expect(localDateOf(from, zone)).toBe(p.start);
    expect(localDateOf(new Date(to.getTime() - 1), zone)).toBe(p.end);
    expect(localDateOf(to, zone)).toBe(dayAfter(p.end));
  });
});

describe('periodPhase', () => {
  const p = period('2026-03-02', '2026-03-08');

  it('is open during the last minute of the end date, local time (23:59 EDT on 2026-03-08)', () => {
    expect(periodPhase(p, new Date('2026-03-09T03:59:00.000Z'), 'America/New_York')).toBe('open');
    expect(periodPhase(p, new Date('2026-03-09T03:59:59.999Z'), 'America/New_York')).toBe('open');
  });

  it('has ended from the first minute after it (00:00 EDT on 2026-03-09)', () => {
    expect(periodPhase(p, new Date('2026-03-09T04:00:00.000Z'), 'America/New_York')).toBe('ended');
    expect(periodPhase(p, new Date('2026-03-09T04:01:00.000Z'), 'America/New_York')).toBe('ended');
  });

  it('depends on the company zone: the same instant has ended in Auckland but is open in New York', () => {
    const instant = new Date('2026-03-08T12:00:00.000Z');
    expect(periodPhase(p, instant, 'Pacific/Auckland')).toBe('ended');
    expect(periodPhase(p, instant, 'America/New_York')).toBe('open');
  });

  it('is open for a period that has not started yet', () => {
    expect(periodPhase(p, new Date('2026-02-01T12:00:00.000Z'), 'America/New_York')).toBe('open');
  });
});

describe('invalid input', () => {
  it.each(['2026-02-29', '2026-02-30', '2026-13-01', '2026-00-10', '2026-2-03', '2026-02-03T00:00:00Z', '', 'yesterday'])(
    'rejects the date %p',
    (date) => {
      expect(() => periodContaining(date, 'weekly', MONDAY)).toThrow(`date must be a calendar date YYYY-MM-DD, got ${JSON.stringify(date)}`);
    },
  );

  it('rejects an invalid anchor date, even for semimonthly', () => {
    expect(() => periodContaining('2026-01-10', 'semimonthly', '2026-04-31')).toThrow('anchorDate must be a calendar date YYYY-MM-DD, got "2026-04-31"');
  });

  it('rejects an unknown frequency', () => {
    expect(() => periodContaining('2026-01-10', 'daily' as PayPeriodFrequency, MONDAY)).toThrow('unknown frequency "daily"');
    expect(() => periodsOverlapping('2026-01-01', '2026-01-31', 'fortnightly' as PayPeriodFrequency, MONDAY)).toThrow('unknown frequency "fortnightly"');
  });

  it('rejects an unknown time zone', () => {
    expect(() => localDateOf(new Date('2026-01-01T00:00:00Z'), 'Mars/Olympus')).toThrow('unknown time zone "Mars/Olympus"');
    expect(() => periodBounds(period('2026-01-01', '2026-01-15'), 'Mars/Olympus')).toThrow('unknown time zone');
    expect(() => periodPhase(period('2026-01-01', '2026-01-15'), new Date('2026-01-10T12:00:00Z'), 'Mars/Olympus')).toThrow('unknown time zone');
  });

  it('rejects an invalid instant', () => {
    expect(() => localDateOf(new Date('not a date'), 'America/New_York')).toThrow('invalid instant');
  });

  it('rejects a period whose start is after its end', () => {
    expect(() => periodBounds(period('2026-01-15', '2026-01-01'), 'America/New_York')).toThrow('period start 2026-01-15 is after its end 2026-01-01');
    expect(() => periodPhase(period('2026-01-15', '2026-01-01'), new Date('2026-01-10T12:00:00Z'), 'America/New_York')).toThrow('is after its end');
  });
});

function dayAfter(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

function dayBefore(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}
