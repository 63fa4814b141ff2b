import type { FieldError, ReplicaEmployee } from '@bop/shared';

/**
 * A punch after the employee's last day (the termination's effective date) is refused on
 * `occurredAt`; one on or before it is kept (a late feed of the last shifts).
 */
export function terminationError(e: ReplicaEmployee, localDate: string): FieldError | null {
  if (e.terminationDate && localDate > e.terminationDate) {
    return { path: 'occurredAt', message: `Employee ${e.id}'s employment ended on ${e.terminationDate} (the last day worked); a punch on ${localDate} comes after it.` };
  }
  if (e.status === 'archived') return { path: 'employeeId', message: `Employee ${e.id} is archived.` };
  return null;
}

/**
 * What a stored punch notes without refusing it: a location that is neither the employee's home nor
 * one of their further locations (borrowed shifts happen), a position the employee does not hold.
 */
export function punchExceptions(e: ReplicaEmployee, locationId: string, position: string | null): Array<{ code: 'outside_locations' | 'position_not_held'; message: string }> {
  const out: Array<{ code: 'outside_locations' | 'position_not_held'; message: string }> = [];
  if (locationId !== e.homeLocationId && !e.locationIds.includes(locationId)) {
    out.push({ code: 'outside_locations', message: `Location ${locationId} is not one of employee ${e.id}'s locations (home ${e.homeLocationId}).` });
  }
  if (position !== null && !e.positions.some((p) => p.toLowerCase() === position.toLowerCase())) {
    out.push({ code: 'position_not_held', message: `Employee ${e.id} does not hold the position "${position}".` });
  }
  return out;
}
