import type { HeldPunch, Punch } from './entities';

export function punchDto(p: Punch) {
  return {
    id: p.id,
    source: p.source,
    externalId: p.externalId,
    employeeId: p.employeeId,
    locationId: p.locationId,
    type: p.type,
    occurredAt: p.occurredAt.toISOString(),
    deviceId: p.deviceId ?? null,
    position: p.position ?? null,
    status: 'active' as const,
    heldReason: null,
    original: p.original ?? null,
    exceptions: p.exceptions,
    payPeriodId: p.payPeriodId ?? null,
    version: p.version,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

export const punchWithHistoryDto = (p: Punch) => ({ ...punchDto(p), corrections: p.corrections });

/** A held punch in the shape of a punch (`status: held`), with why it is held. */
export function heldPunchDto(h: HeldPunch) {
  const r = h.row;
  return {
    id: h.id,
    source: h.source,
    externalId: h.externalId,
    employeeId: r.employee_id,
    locationId: r.location_id,
    type: r.type,
    occurredAt: new Date(r.occurred_at).toISOString(),
    deviceId: r.device_id,
    position: r.position,
    status: 'held' as const,
    heldReason: h.reason,
    original: null,
    exceptions: r.exceptions,
    payPeriodId: h.payPeriodId,
    version: h.version,
    createdAt: h.createdAt.toISOString(),
    updatedAt: h.updatedAt.toISOString(),
  };
}
