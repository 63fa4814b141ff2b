import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

type Actor = { type: string; id: string | null };
export type SwapStatus = 'pending' | 'approved' | 'rejected' | 'cancelled' | 'expired';

/** A published shift offered by the employee working it to a co-worker, until a manager decides or the shift starts. */
export const ShiftSwap = defineEntity({
  name: 'ShiftSwap',
  tableName: 'shift_swaps',
  properties: {
    id: p.string().primary(),
    shiftId: p.string(),
    locationId: p.string(),
    fromEmployeeId: p.string(),
    toEmployeeId: p.string(),
    note: p.string().nullable(),
    status: p.string().$type<SwapStatus>(),
    requestedBy: p.json<Actor>(),
    decidedAt: p.datetime().nullable(),
    decidedBy: p.json<Actor>().nullable(),
    rejectionReason: p.string().nullable(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type ShiftSwap = InferEntity<typeof ShiftSwap>;
