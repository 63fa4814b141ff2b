/**
 * Local calendar of the forecast: local dates as day numbers (days since 1970-01-01), ISO dates and
 * instants read and written without a Date object, local day starts in an IANA zone and the
 * 15-minute wall-clock slots of a day.
 */
import { DateTime, type IANAZone } from 'luxon';
import { ForecastInputError } from './input-error';

export const SLOT_MS = 15 * 60_000;
export const SLOTS = 96;
const DAY_MS = 86_400_000;

export interface Calendar {
  zone: IANAZone;
  /** local day number (days since 1970-01-01 of the local date) of index 0 */
  first: number;
  /** UTC instant of the start of each local day, one more than the days */
  starts: Float64Array;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
// an instant names its offset: Date.parse would read a bare local time in the process's zone
const INSTANT_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

export function parseInstant(value: string, what: string): number {
  const ms = INSTANT_RE.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw new ForecastInputError(`${what}: expected an ISO instant with an offset, got ${JSON.stringify(value)}`);
  return ms;
}

export function parseLocalDate(date: string, what: string): number {
  const m = DATE_RE.exec(date);
  if (!m) throw new ForecastInputError(`${what}: expected a date yyyy-mm-dd, got ${JSON.stringify(date)}`);
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  if (formatDayNumber(ms / DAY_MS) !== date) throw new ForecastInputError(`${what}: no such date ${date}`);
  return ms / DAY_MS;
}

// Howard Hinnant's civil_from_days: dates and instants are formatted without a Date object
function civil(dayNumber: number): [number, number, number] {
  const z = dayNumber + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export function formatDayNumber(dayNumber: number): string {
  const [y, m, d] = civil(dayNumber);
  return `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
}

export function formatInstant(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  const rest = ms - day * DAY_MS;
  const h = Math.floor(rest / 3_600_000);
  const mi = Math.floor((rest % 3_600_000) / 60_000);
  const s = Math.floor((rest % 60_000) / 1000);
  return `${formatDayNumber(day)}T${pad(h)}:${pad(mi)}:${pad(s)}.${pad(rest % 1000, 3)}Z`;
}

/** Monday 0 .. Sunday 6 */
export const weekdayOf = (dayNumber: number) => (((dayNumber + 3) % 7) + 7) % 7;

export const monthDayOf = (dayNumber: number) => formatDayNumber(dayNumber).slice(5);

export function localDayNumber(ms: number, zone: IANAZone): number {
  return Math.floor((ms + zone.offset(ms) * 60_000) / DAY_MS);
}

export function dayStart(dayNumber: number, zone: IANAZone): number {
  const [year, month, day] = civil(dayNumber);
  return DateTime.fromObject({ year, month, day }, { zone }).toMillis();
}

export function buildCalendar(zone: IANAZone, first: number, days: number): Calendar {
  const starts = new Float64Array(days + 1);
  for (let i = 0; i <= days; i++) starts[i] = dayStart(first + i, zone);
  return { zone, first, starts };
}

/** wall-clock slot of each interval of a day whose length is not 24 hours */
export function wallSlots(start: number, intervals: number, zone: IANAZone): Int32Array {
  const slots = new Int32Array(intervals);
  for (let k = 0; k < intervals; k++) {
    const ms = start + k * SLOT_MS;
    const local = ms + zone.offset(ms) * 60_000;
    const inDay = ((local % DAY_MS) + DAY_MS) % DAY_MS;
    slots[k] = Math.min(SLOTS - 1, Math.floor(inDay / SLOT_MS));
  }
  return slots;
}

export function findDay(starts: Float64Array, ms: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= ms) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
