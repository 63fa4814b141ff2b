import type { ShiftSwap } from './entities';
import type { Shift } from '../shifts/entities';

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/** A shift swap on the wire, with its shift's start (a pending swap expires then). */
export function swapDto(w: ShiftSwap, shift: Pick<Shift, 'start'>) {
  return {
    id: w.id,
    shiftId: w.shiftId,
    locationId: w.locationId,
    fromEmployeeId: w.fromEmployeeId,
    toEmployeeId: w.toEmployeeId,
    note: w.note ?? null,
    status: w.status,
    shiftStart: iso(shift.start)!,
    requestedBy: w.requestedBy as never,
    decidedAt: iso(w.decidedAt),
    decidedBy: (w.decidedBy ?? null) as never,
    rejectionReason: w.rejectionReason ?? null,
    version: w.version,
    createdAt: iso(w.createdAt)!,
    updatedAt: iso(w.updatedAt)!,
  };
}
export type SwapView = ReturnType<typeof swapDto>;
