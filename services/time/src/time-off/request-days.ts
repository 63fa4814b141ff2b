import Decimal from 'decimal.js';

const DAY_MS = 86_400_000;
const WORKDAYS = new Set([1, 2, 3, 4, 5]);

/**
 * The hours of an approved request day by day, clipped to [from, to]: a partial-day request on its
 * one day; otherwise its hours spread evenly over its workdays, Monday to Friday as `requestHours`
 * counts them (so the days add up to the request's hours).
 */
export function requestHoursByDay(r: { startDate: string; endDate: string; hours: string; partialHours: string | null }, from: string, to: string): Array<{ date: string; hours: string }> {
  if (r.partialHours !== null) return r.startDate >= from && r.startDate <= to ? [{ date: r.startDate, hours: new Decimal(r.hours).toFixed() }] : [];
  const days: string[] = [];
  for (let ms = Date.parse(`${r.startDate}T00:00:00Z`), end = Date.parse(`${r.endDate}T00:00:00Z`); ms <= end; ms += DAY_MS) {
    const d = new Date(ms);
    if (WORKDAYS.has(d.getUTCDay() === 0 ? 7 : d.getUTCDay())) days.push(d.toISOString().slice(0, 10));
  }
  if (days.length === 0) return [];
  const perDay = new Decimal(r.hours).div(days.length).toFixed();
  return days.filter((d) => d >= from && d <= to).map((date) => ({ date, hours: perDay }));
}
