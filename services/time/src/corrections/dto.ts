import type { PunchCorrection } from './entities';

/** A punch correction request on the wire. */
export function correctionDto(c: PunchCorrection) {
  const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);
  return {
    id: c.id,
    employeeId: c.employeeId,
    punchId: c.punchId ?? null,
    locationId: c.locationId,
    type: c.type,
    occurredAt: iso(c.occurredAt)!,
    current: c.current ?? null,
    reason: c.reason,
    status: c.status,
    appliedPunchId: c.appliedPunchId ?? null,
    decidedAt: iso(c.decidedAt),
    decidedBy: (c.decidedBy ?? null) as never,
    rejectionReason: c.rejectionReason ?? null,
    version: c.version,
    createdAt: iso(c.createdAt)!,
    updatedAt: iso(c.updatedAt)!,
  };
}
