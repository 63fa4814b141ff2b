// The kit's calendar-date arithmetic (cash's day ranges and deposit windows, time's pay periods,
// equipment's maintenance dates): luxon's calendar days, across months, years and leap days.
import { addDays } from '../src/business-day';

describe('addDays', () => {
  it.each([
    ['2026-02-25', 7, '2026-03-04'],
    ['2026-03-08', -1, '2026-03-07'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2026-01-01', -1, '2025-12-31'],
    ['2026-03-29', 0, '2026-03-29'],
    ['2026-11-28', 91, '2027-02-27'],
  ])('%s %+d days is %s', (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected);
  });
});
