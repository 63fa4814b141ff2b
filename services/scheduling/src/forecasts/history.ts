/**
 * Demand history folded into local days × 15-minute slots: open and closed days, days of normal
 * length, special days left out of training, and the weekdays that are regularly closed.
 */
import type { IANAZone } from 'luxon';
import { buildCalendar, findDay, localDayNumber, monthDayOf, parseInstant, SLOT_MS, SLOTS, wallSlots, weekdayOf, type Calendar } from './calendar';
import { ForecastInputError } from './input-error';
import type { SpecialIndex } from './special-days';

export interface DemandPoint {
  /** ISO instant of the start of the 15-minute interval (a point inside an interval counts for it) */
  start: string;
  value: number;
}

const CLOSED_CHECK_DAYS = 56;

export interface History {
  cal: Calendar;
  days: number;
  values: Float64Array;
  totals: Float64Array;
  open: Uint8Array;
  normalLength: Uint8Array;
  special: Uint8Array;
}

export function foldHistory(points: DemandPoint[], zone: IANAZone, trainEnd: number, specials: SpecialIndex): History | null {
  const instants = new Float64Array(points.length);
  let min = Infinity;
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    const ms = parseInstant(p.start, `history[${i}].start`);
    if (typeof p.value !== 'number' || !Number.isFinite(p.value)) throw new ForecastInputError(`history[${i}].value: not a number`);
    instants[i] = ms;
    if (ms < min) min = ms;
  }
  if (min === Infinity) return null;
  const first = localDayNumber(min, zone);
  if (first > trainEnd) return null;
  const days = trainEnd - first + 1;
  const cal = buildCalendar(zone, first, days);
  const values = new Float64Array(days * SLOTS);
  const open = new Uint8Array(days);
  const normalLength = new Uint8Array(days);
  const maps: (Int32Array | null)[] = new Array(days).fill(null);
  for (let d = 0; d < days; d++) {
    const intervals = Math.round((cal.starts[d + 1] - cal.starts[d]) / SLOT_MS);
    if (intervals === SLOTS) normalLength[d] = 1;
    else maps[d] = wallSlots(cal.starts[d], intervals, zone);
  }
  const end = cal.starts[days];
  for (let i = 0; i < points.length; i++) {
    const ms = instants[i];
    if (ms >= end) continue;
    const d = findDay(cal.starts, ms);
    const k = Math.floor((ms - cal.starts[d]) / SLOT_MS);
    const map = maps[d];
    const slot = map ? map[Math.min(k, map.length - 1)] : k;
    values[d * SLOTS + slot] += points[i].value;
    open[d] = 1;
  }
  const totals = new Float64Array(days);
  const special = new Uint8Array(days);
  for (let d = 0; d < days; d++) {
    let total = 0;
    for (let s = d * SLOTS; s < (d + 1) * SLOTS; s++) {
      // refunds can make an interval negative: demand is not
      if (values[s] < 0) values[s] = 0;
      total += values[s];
    }
    totals[d] = total;
    if (total <= 0) open[d] = 0;
    const n = first + d;
    if (specials.byDay.has(n) || specials.unnamedMonthDays.has(monthDayOf(n))) special[d] = 1;
  }
  return { cal, days, values, totals, open, normalLength, special };
}

export const usable = (h: History, d: number) => h.open[d] === 1 && h.special[d] === 0;

export function regularlyClosed(h: History): boolean[] {
  const seen = new Array(7).fill(0);
  const opened = new Array(7).fill(0);
  for (let d = Math.max(0, h.days - CLOSED_CHECK_DAYS); d < h.days; d++) {
    if (h.special[d]) continue;
    const w = weekdayOf(h.cal.first + d);
    seen[w]++;
    opened[w] += h.open[d];
  }
  return seen.map((n, w) => n > 0 && opened[w] * 2 < n);
}
