import type { Availability } from './entities';

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/** An availability window on the wire, with the zone its times are read in (the employee's home location's). */
export function availabilityDto(a: Availability, zone: string) {
  return {
    id: a.id,
    employeeId: a.employeeId,
    kind: a.kind,
    weekday: (a.weekday ?? null) as 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday' | null,
    date: a.date ?? null,
    startTime: a.startTime,
    endTime: a.endTime,
    effectiveFrom: a.effectiveFrom ?? null,
    effectiveUntil: a.effectiveUntil ?? null,
    timezone: zone,
    note: a.note ?? null,
    status: a.status,
    version: a.version,
    createdAt: iso(a.createdAt)!,
    updatedAt: iso(a.updatedAt)!,
  };
}
export type AvailabilityView = ReturnType<typeof availabilityDto>;
