import Decimal from 'decimal.js';
import { DateTime } from 'luxon';
import { availabilityConflict, localDatesOf, type WindowRow } from '../availability/windows';
import type { SchedulingSettings, WeekStart } from '../settings/company-settings';

export type WarningCode = 'outside_availability' | 'time_off' | 'overlapping_shift' | 'short_rest' | 'overtime' | 'position_not_held' | 'location_not_worked' | 'employee_not_active';
export interface ShiftWarning {
  code: WarningCode;
  message: string;
}

export interface ShiftTimes {
  id?: string;
  locationId: string;
  start: number;
  end: number;
  breakMinutes: number;
}

export interface WarningInput {
  shift: ShiftTimes & { position: string };
  /** the shift's location's zone (days, workweeks and wording) */
  zone: string;
  employee: { id: string; name: string; status: string; positions: string[]; locationIds: string[]; homeLocationId: string; terminationDate: string | null };
  availability: WindowRow[];
  /** the employee's home location's zone, the one availability times are read in */
  availabilityZone: string;
  /** the employee's other shifts (not archived) around this one: the workweek and a day either side */
  otherShifts: ShiftTimes[];
  /** approved time off of the employee overlapping these days */
  timeOff: Array<{ startDate: string; endDate: string; partialHours?: string | null }>;
  settings: SchedulingSettings;
}

const WEEKDAY_NUMBER: Record<WeekStart, number> = { monday: 1, tuesday: 2, wednesday: 3, thursday: 4, friday: 5, saturday: 6, sunday: 7 };

/** Paid hours of a shift: its length less the unpaid break (never below 0), as a decimal. */
export function paidHours(s: Pick<ShiftTimes, 'start' | 'end' | 'breakMinutes'>): Decimal {
  const minutes = Math.max(0, (s.end - s.start) / 60_000 - s.breakMinutes);
  return new Decimal(minutes).div(60);
}

/** The first day (local date) of the workweek holding `date`. */
export function workweekStart(date: string, weekStart: WeekStart): string {
  const d = DateTime.fromISO(date, { zone: 'UTC' });
  const back = (d.weekday - WEEKDAY_NUMBER[weekStart] + 7) % 7;
  return d.minus({ days: back }).toISODate()!;
}

const at = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).toFormat('ccc d LLL HH:mm');
const hoursText = (d: Decimal) => d.toDecimalPlaces(2).toFixed();

/**
 * What a manager should know about a shift given to an employee, in words (spec issue: warnings, never
 * refusals): outside availability, approved time off, an overlapping shift, rest under the company
 * minimum, the workweek's hours past overtime, a position the employee does not hold, a location they
 * do not work at, an employment ended by then.
 */
export function shiftWarnings(input: WarningInput): ShiftWarning[] {
  const { shift, zone, employee: e, settings } = input;
  const out: ShiftWarning[] = [];
  const who = e.name;
  const day = DateTime.fromMillis(shift.start, { zone }).toISODate()!;

  if (e.status === 'terminated' || e.status === 'archived' || (e.terminationDate !== null && day > e.terminationDate)) {
    out.push({ code: 'employee_not_active', message: `${who}'s employment ${e.terminationDate ? `ended on ${e.terminationDate}` : 'has ended'}; the shift on ${day} comes after it.` });
  }
  const held = e.positions.map((p) => p.normalize('NFC').toLowerCase());
  if (!held.includes(shift.position.normalize('NFC').toLowerCase())) {
    out.push({ code: 'position_not_held', message: `${who} does not hold the position ${shift.position}${e.positions.length ? ` (holds ${e.positions.join(', ')})` : ''}.` });
  }
  if (shift.locationId !== e.homeLocationId && !e.locationIds.includes(shift.locationId)) {
    out.push({ code: 'location_not_worked', message: `${who} does not work at location ${shift.locationId}.` });
  }
  const conflict = availabilityConflict(input.availability, shift.start, shift.end, input.availabilityZone);
  if (conflict) out.push({ code: 'outside_availability', message: `${who} ${conflict}.` });

  const days = localDatesOf(shift.start, shift.end, zone);
  const off = input.timeOff.find((t) => days.some((d) => t.startDate <= d && d <= t.endDate));
  if (off) {
    const span = off.startDate === off.endDate ? off.startDate : `${off.startDate} to ${off.endDate}`;
    out.push({ code: 'time_off', message: `${who} has approved time off ${span}${off.partialHours ? ` (${off.partialHours} hours)` : ''}.` });
  }

  const others = input.otherShifts.filter((o) => o.id === undefined || o.id !== shift.id);
  for (const o of others) {
    if (o.start < shift.end && o.end > shift.start) {
      out.push({ code: 'overlapping_shift', message: `${who} already works ${at(o.start, zone)}–${DateTime.fromMillis(o.end, { zone }).toFormat('HH:mm')}${o.locationId !== shift.locationId ? ` at location ${o.locationId}` : ''}.` });
    }
  }
  const restMs = settings.minRestHours * 3_600_000;
  if (restMs > 0) {
    for (const o of others) {
      if (o.start < shift.end && o.end > shift.start) continue;
      const gap = o.end <= shift.start ? shift.start - o.end : o.start - shift.end;
      if (gap < restMs) {
        const rest = new Decimal(gap).div(3_600_000);
        const order = o.end <= shift.start ? `after the shift ending ${at(o.end, zone)}` : `before the shift starting ${at(o.start, zone)}`;
        out.push({ code: 'short_rest', message: `${who} rests only ${hoursText(rest)} hours ${order}; the company minimum is ${settings.minRestHours}.` });
      }
    }
  }
  if (settings.weeklyOvertimeAfter !== null) {
    const week = workweekStart(day, settings.weekStart);
    const inWeek = (s: ShiftTimes) => workweekStart(DateTime.fromMillis(s.start, { zone }).toISODate()!, settings.weekStart) === week;
    const total = others.filter(inWeek).reduce((sum, s) => sum.plus(paidHours(s)), paidHours(shift));
    if (total.gt(settings.weeklyOvertimeAfter)) {
      out.push({
        code: 'overtime',
        message: `${who}'s workweek from ${week} reaches ${hoursText(total)} hours, ${hoursText(total.minus(settings.weeklyOvertimeAfter))} past the ${settings.weeklyOvertimeAfter} after which overtime is paid.`,
      });
    }
  }
  return out;
}
