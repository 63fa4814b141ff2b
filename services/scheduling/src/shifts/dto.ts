import { DateTime } from 'luxon';
import type { Shift } from './entities';
import { paidHours } from './warnings';

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/** A shift on the wire: its instants in UTC and, for people reading it, in the location's zone. */
export function shiftDto(s: Shift, zone: string) {
  const start = new Date(s.start).getTime();
  const end = new Date(s.end).getTime();
  return {
    id: s.id,
    externalId: s.externalId ?? null,
    locationId: s.locationId,
    position: s.position,
    employeeId: s.employeeId ?? null,
    start: iso(s.start)!,
    end: iso(s.end)!,
    timezone: zone,
    localStart: DateTime.fromMillis(start, { zone }).toISO({ suppressMilliseconds: true })!,
    localEnd: DateTime.fromMillis(end, { zone }).toISO({ suppressMilliseconds: true })!,
    breakMinutes: s.breakMinutes,
    paidHours: paidHours({ start, end, breakMinutes: s.breakMinutes }).toDecimalPlaces(2).toFixed(),
    notes: s.notes ?? null,
    status: s.status,
    flags: (s.flags ?? []).map((f) => ({ code: f.code, message: f.message, sourceId: f.sourceId })),
    publishedAt: iso(s.publishedAt),
    version: s.version,
    createdAt: iso(s.createdAt)!,
    updatedAt: iso(s.updatedAt)!,
  };
}
export type ShiftView = ReturnType<typeof shiftDto>;
