/**
 * Special days as the company and a location list them: one entry per local date (a location's own
 * entries over the company's; within one of them, closed over a dip over a lift), the occurrences of
 * each (same name, or same month and day when unnamed) and the month-days that are special in every
 * year.
 */
import { monthDayOf, parseLocalDate } from './calendar';
import { ForecastInputError } from './input-error';

export type SpecialDayKind = 'closed' | 'lift' | 'dip';

export interface SpecialDay {
  /** local date yyyy-mm-dd */
  date: string;
  kind: SpecialDayKind;
  /** e.g. +30 or −20; learned from past occurrences when absent */
  expectedPercent?: number;
  /** occurrences with the same name (in any year) are the same special day */
  name?: string;
  /** set: the location's own entry, overriding the company's on that date; absent: the company's */
  locationId?: string;
}

export interface ForecastDaySpecial {
  kind: SpecialDayKind;
  name?: string;
  /** the percent applied to the normal day total (−100 when closed) */
  percent: number;
  source: 'closed' | 'given' | 'learned' | 'default';
}

export interface SpecialIndex {
  byDay: Map<number, SpecialDay>;
  /** day numbers of each key's listed occurrences */
  occurrences: Map<string, number[]>;
  /** month-days of unnamed entries: the same month-day is special in every year */
  unnamedMonthDays: Set<string>;
}

export const specialKey = (s: SpecialDay, dayNumber: number) => {
  const name = s.name?.trim().toLowerCase();
  return name ? `name:${name}` : `md:${monthDayOf(dayNumber)}`;
};

const KIND_RANK: Record<SpecialDayKind, number> = { closed: 0, dip: 1, lift: 2 };

/**
 * Indexes the special days that hold at `locationId`: the company's (no `locationId`) and its own,
 * whose entries replace the company's on their date (entries of other locations are left out).
 */
export function indexSpecialDays(list: SpecialDay[], locationId?: string): SpecialIndex {
  const byDay = new Map<number, SpecialDay>();
  const occurrences = new Map<string, number[]>();
  const unnamedMonthDays = new Set<string>();
  const dayOf = new Map<SpecialDay, number>();
  const ownDays = new Set<number>();
  for (const s of list) {
    const n = parseLocalDate(s.date, 'specialDays.date');
    if (!(s.kind in KIND_RANK)) throw new ForecastInputError(`specialDays.kind: ${String(s.kind)}`);
    if (s.expectedPercent !== undefined && !(Number.isFinite(s.expectedPercent) && s.expectedPercent >= -100)) {
      throw new ForecastInputError(`specialDays.expectedPercent: ${s.expectedPercent}`);
    }
    dayOf.set(s, n);
    if (s.locationId !== undefined && s.locationId === locationId) ownDays.add(n);
  }
  for (const s of list) {
    const n = dayOf.get(s)!;
    const own = s.locationId !== undefined;
    if (own && s.locationId !== locationId) continue;
    // the location's own entry replaces the company's on its date
    if (!own && ownDays.has(n)) continue;
    const held = byDay.get(n);
    // two entries on one date: closed wins over a dip, a dip over a lift
    if (!held || KIND_RANK[s.kind] < KIND_RANK[held.kind]) byDay.set(n, s);
    const key = specialKey(s, n);
    const seen = occurrences.get(key);
    if (seen) seen.push(n);
    else occurrences.set(key, [n]);
    if (!s.name?.trim()) unnamedMonthDays.add(monthDayOf(n));
  }
  return { byDay, occurrences, unnamedMonthDays };
}
