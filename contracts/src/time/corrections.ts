import { z } from '../zod';
import { Actor, IdParam, ListQuery, Timestamp, listEnvelope } from '../common';
import { utcTimestamp } from '../sales/transactions';
import { PunchType } from './punches';


/**
 * An employee's request to fix a punch (`POST /me/punch-corrections`): with `punchId`, that punch's
 * time or type is wrong; without it, a punch is missing (then `type`, `occurredAt` and `locationId`).
 */
export const PunchCorrectionCreate = z
  .strictObject({
    punchId: z.string().min(1).max(64).optional(),
    type: PunchType.optional(),
    occurredAt: utcTimestamp('send occurredAt in UTC').optional(),
    locationId: z.string().min(1).max(64).optional().openapi({ description: 'where the missing punch happened (default: your home location)' }),
    reason: z.string().trim().min(1).max(500).openapi({ example: 'Forgot to clock out after closing' }),
  })
  .superRefine((b, ctx) => {
    if (b.punchId === undefined) {
      if (!b.type) ctx.addIssue({ code: 'custom', path: ['type'], message: 'A missing punch needs its type.' });
      if (!b.occurredAt) ctx.addIssue({ code: 'custom', path: ['occurredAt'], message: 'A missing punch needs its time.' });
    } else if (!b.type && !b.occurredAt) ctx.addIssue({ code: 'custom', path: ['occurredAt'], message: 'Send the right occurredAt, type or both.' });
  })
  .openapi('PunchCorrectionCreate');

export const PunchCorrection = z
  .object({
    id: z.string().openapi({ example: 'pcr_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    employeeId: z.string(),
    punchId: z.string().nullable().openapi({ description: 'the punch to change; null: a missing punch to add (its id once approved in `appliedPunchId`)' }),
    locationId: z.string(),
    type: PunchType,
    occurredAt: Timestamp,
    current: z.object({ type: PunchType, occurredAt: Timestamp }).nullable().openapi({ description: 'the punch as it was when the request was made' }),
    reason: z.string(),
    status: z.enum(['pending', 'approved', 'rejected', 'cancelled']),
    appliedPunchId: z.string().nullable(),
    decidedAt: Timestamp.nullable(),
    decidedBy: Actor.nullable(),
    rejectionReason: z.string().nullable(),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('PunchCorrection');

export const PunchCorrectionListQuery = ListQuery.extend({
  status: z.enum(['pending', 'approved', 'rejected', 'cancelled']).optional(),
  locationId: z.string().min(1).max(64).optional(),
  updatedSince: Timestamp.optional(),
});

export const PunchCorrectionReject = z.strictObject({ reason: z.string().trim().min(1).max(500) }).openapi('PunchCorrectionReject');

export const correctionOperations = {
  'GET /time/punch-corrections': { query: PunchCorrectionListQuery, response: listEnvelope(PunchCorrection) },
  'POST /time/punch-corrections/{id}:approve': { params: IdParam, response: PunchCorrection },
  'POST /time/punch-corrections/{id}:reject': { params: IdParam, body: PunchCorrectionReject, response: PunchCorrection },
  'GET /me/punch-corrections': { query: ListQuery, response: listEnvelope(PunchCorrection) },
  'POST /me/punch-corrections': { body: PunchCorrectionCreate, response: PunchCorrection, status: 201 },
  'POST /me/punch-corrections/{id}:cancel': { params: IdParam, response: PunchCorrection },
};
