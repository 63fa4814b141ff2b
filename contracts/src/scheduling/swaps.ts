import { z } from '../zod';
import { Actor, IdParam, ListQuery, Timestamp, listEnvelope } from '../common';

const id = z.string().min(1).max(64);
const SwapStatus = z.enum(['pending', 'approved', 'rejected', 'cancelled', 'expired']);

export const ShiftSwapCreate = z
  .strictObject({
    shiftId: id,
    toEmployeeId: id.openapi({ description: 'the co-worker who takes the shift once approved' }),
    note: z.string().trim().max(500).nullable().optional(),
  })
  .openapi('ShiftSwapCreate');

export const ShiftSwapReject = z.strictObject({ reason: z.string().trim().min(1).max(500) }).openapi('ShiftSwapReject');

export const ShiftSwap = z
  .object({
    id: z.string().openapi({ example: 'swp_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    shiftId: z.string(),
    locationId: z.string(),
    fromEmployeeId: z.string(),
    toEmployeeId: z.string(),
    note: z.string().nullable(),
    status: SwapStatus,
    shiftStart: Timestamp.openapi({ description: 'a pending swap expires when the shift starts' }),
    requestedBy: Actor,
    decidedAt: Timestamp.nullable(),
    decidedBy: Actor.nullable(),
    rejectionReason: z.string().nullable(),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('ShiftSwap');

export const ShiftSwapListQuery = ListQuery.extend({
  status: SwapStatus.optional(),
  locationId: id.optional(),
  employeeId: id.optional().openapi({ description: 'swaps this employee offered or was offered' }),
  updatedSince: Timestamp.optional(),
});

export const swapOperations = {
  'GET /shift-swaps': { query: ShiftSwapListQuery, response: listEnvelope(ShiftSwap) },
  'POST /shift-swaps': { body: ShiftSwapCreate, response: ShiftSwap, status: 201 },
  'GET /shift-swaps/{id}': { params: IdParam, response: ShiftSwap },
  'POST /shift-swaps/{id}:approve': { params: IdParam, response: ShiftSwap },
  'POST /shift-swaps/{id}:reject': { params: IdParam, body: ShiftSwapReject, response: ShiftSwap },
  'GET /me/shift-swaps': { query: ListQuery, response: listEnvelope(ShiftSwap) },
  'POST /me/shift-swaps': { body: ShiftSwapCreate, response: ShiftSwap, status: 201 },
};
