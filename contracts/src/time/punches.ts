import { z } from '../zod';
import { Actor, BatchResult, IdParam, ListQuery, Timestamp, listEnvelope } from '../common';
import { utcTimestamp } from '../sales/transactions';

export const PunchType = z.enum(['clock_in', 'clock_out', 'break_start', 'break_end']);
export type PunchType = z.output<typeof PunchType>;

const label = z.string().trim().min(1).max(100);

/** One record of `POST /time/punches:batch`, as a timeclock sends it. */
export const PunchInput = z
  .strictObject({
    externalId: z.string().min(1).max(200),
    employeeId: z.string().min(1).max(64).optional(),
    employeeExternalId: z.string().min(1).max(200).optional(),
    locationId: z.string().min(1).max(64).optional(),
    locationExternalId: z.string().min(1).max(200).optional(),
    type: PunchType,
    occurredAt: utcTimestamp('send occurredAt in UTC'),
    deviceId: z.string().min(1).max(100).optional().openapi({ example: 'clock-front-door' }),
    position: label.optional().openapi({ description: 'the position worked (a label of company settings `positions`)', example: 'Cook' }),
  })
  .superRefine((t, ctx) => {
    if ((t.employeeId === undefined) === (t.employeeExternalId === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['employeeId'], message: 'Send exactly one of employeeId or employeeExternalId.' });
    }
    // spec: ingestion rule 2
    if ((t.locationId === undefined) === (t.locationExternalId === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['locationId'], message: 'Send exactly one of locationId or locationExternalId.' });
    }
  })
  .openapi('PunchInput');
export type PunchInput = z.output<typeof PunchInput>;

export const PunchBatch = z
  .strictObject({
    source: z.string().trim().min(1).max(100).openapi({ description: 'a stable label per timeclock system and location', example: 'clock-store-12' }),
    punches: z.array(z.unknown()).min(1).max(100_000).openapi({ description: 'PunchInput records; at most API_MAX_BATCH_SIZE (1,000 by default)' }),
  })
  .openapi('PunchBatch');

export const PunchException = z.object({
  code: z.enum(['outside_locations', 'position_not_held']),
  message: z.string(),
});


export const PunchCorrectionEntry = z.object({
  at: Timestamp,
  by: Actor,
  reason: z.string(),
  before: z.object({ type: PunchType, occurredAt: Timestamp }),
  after: z.object({ type: PunchType, occurredAt: Timestamp }),
  via: z.enum(['correction', 'request', 'resend']),
});

export const Punch = z
  .object({
    id: z.string().openapi({ example: 'pun_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    source: z.string(),
    externalId: z.string(),
    employeeId: z.string(),
    locationId: z.string(),
    type: PunchType,
    occurredAt: Timestamp,
    deviceId: z.string().nullable(),
    position: z.string().nullable(),
    status: z.enum(['active', 'held']).openapi({ description: '`held`: sent into a locked pay period; it counts in no timesheet until the period is unlocked' }),
    heldReason: z.string().nullable(),
    original: z.object({ type: PunchType, occurredAt: Timestamp }).nullable().openapi({ description: 'the punch as first received, when it has been corrected since' }),
    exceptions: z.array(PunchException),
    payPeriodId: z.string().nullable(),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('Punch');

export const PunchWithHistory = Punch.extend({ corrections: z.array(PunchCorrectionEntry) }).openapi('PunchWithHistory');

export const PunchListQuery = ListQuery.extend({
  locationId: z.string().min(1).max(64).optional(),
  employeeId: z.string().min(1).max(64).optional(),
  from: Timestamp.optional(),
  to: Timestamp.optional(),
  updatedSince: Timestamp.optional(),
  status: z.enum(['active', 'held']).optional(),
});

export const PunchCorrect = z
  .strictObject({
    occurredAt: utcTimestamp('send occurredAt in UTC').optional(),
    type: PunchType.optional(),
    reason: z.string().trim().min(1).max(500),
  })
  .refine((b) => b.occurredAt !== undefined || b.type !== undefined, { message: 'Send occurredAt, type or both.', path: ['occurredAt'] })
  .openapi('PunchCorrect');

export const MePunchesQuery = ListQuery.extend({ from: Timestamp.optional(), to: Timestamp.optional() });

export const punchOperations = {
  'POST /time/punches:batch': { body: PunchBatch, response: BatchResult, status: 202 },
  'GET /time/punches': { query: PunchListQuery, response: listEnvelope(Punch) },
  'GET /time/punches/{id}': { params: IdParam, response: PunchWithHistory },
  'POST /time/punches/{id}:correct': { params: IdParam, body: PunchCorrect, response: PunchWithHistory },
  'GET /me/punches': { query: MePunchesQuery, response: listEnvelope(Punch) },
};
