import { classifyWeek } from '../src/rules/overtime';
import { CALIFORNIA, FORTY_HOURS } from './rule-sets';


const week = (hours: string[]) => hours.map((h, i) => ({ date: `2026-11-${String(16 + i).padStart(2, '0')}`, hours: h }));
const by = (days: ReturnType<typeof classifyWeek>) => days.map((d) => d.byMultiplier);

describe('overtime: worked examples', () => {
  it('a plain 40-hour week: 5 × 9 h = 45 h → 40 regular, 5 at 1.5 (from Friday\'s 4th hour)', () => {
    expect(by(classifyWeek(week(['9', '9', '9', '9', '9', '0', '0']), FORTY_HOURS))).toEqual([
      { '1': '9.00' },
      { '1': '9.00' },
      { '1': '9.00' },
      { '1': '9.00' },
      { '1': '4.00', '1.5': '5.00' },
      {},
      {},
    ]);
  });

  it('California: Mon 10, Tue 13, Wed 8, Thu 8, Fri 9, Sat 6, Sun 0 (54 h)', () => {
    // daily: Mon 8+2@1.5; Tue 8+4@1.5+1@2; Wed 8; Thu 8; Fri 8+1@1.5; regular so far 40 after Fri
    // weekly: Sat's 6 regular hours are beyond 40 → 6@1.5. Totals: 40 regular, 13 at 1.5, 1 at 2 = 54
    const days = classifyWeek(week(['10', '13', '8', '8', '9', '6', '0']), CALIFORNIA);
    expect(by(days)).toEqual([
      { '1': '8.00', '1.5': '2.00' },
      { '1': '8.00', '1.5': '4.00', '2': '1.00' },
      { '1': '8.00' },
      { '1': '8.00' },
      { '1': '8.00', '1.5': '1.00' },
      { '1.5': '6.00' },
      {},
    ]);
  });

  it('California: the seventh consecutive day, its first 8 h at 1.5 and beyond at 2, and the weekly 40 already passed', () => {
    // Mon–Sat 7 h each = 42 regular-eligible: the 41st and 42nd hours (Sat) at 1.5 by the week
    // Sun, the 7th consecutive day, 10 h: 8 at 1.5, 2 at 2 (the daily 8/12 tiers pay less there)
    const days = classifyWeek(week(['7', '7', '7', '7', '7', '7', '10']), CALIFORNIA);
    expect(by(days)).toEqual([
      { '1': '7.00' },
      { '1': '7.00' },
      { '1': '7.00' },
      { '1': '7.00' },
      { '1': '7.00' },
      { '1': '5.00', '1.5': '2.00' },
      { '1.5': '8.00', '2': '2.00' },
    ]);
  });

  it('a day off breaks the run of consecutive days; fractions stay exact', () => {
    const days = classifyWeek(week(['8.25', '8.25', '0', '8.25', '8.25', '8.25', '8.25']), CALIFORNIA);
    expect(days.every((d) => !('2' in d.byMultiplier))).toBe(true);
    expect(days[0].byMultiplier).toEqual({ '1': '8.00', '1.5': '0.25' });
    const total = days.reduce((s, d) => s + Object.values(d.byMultiplier).reduce((a, b) => a + Number(b), 0), 0);
    expect(total).toBeCloseTo(49.5, 10);
  });

  it('pays no hour twice: each day\'s split adds up to its hours', () => {
    for (const hours of [['14', '14', '14', '14', '14', '14', '14'], ['0.5', '12', '3', '0', '16', '1', '8']]) {
      for (const d of classifyWeek(week(hours), CALIFORNIA)) {
        const sum = Object.values(d.byMultiplier).reduce((a, b) => a + Number(b), 0);
        expect(sum).toBeCloseTo(Number(d.hours), 10);
      }
    }
  });
});
