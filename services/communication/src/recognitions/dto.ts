import type { Recognition } from './entities';

/** A recognition on the wire (and in `recognition.posted`). */
export function recognitionDto(r: Recognition) {
  return {
    id: r.id,
    employeeId: r.employeeId,
    employeeName: r.employeeName,
    locationId: r.locationId,
    message: r.message,
    badge: r.badge ?? null,
    givenBy: r.givenBy,
    createdAt: new Date(r.createdAt).toISOString(),
  };
}
