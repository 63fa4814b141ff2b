import { z } from './zod';
import { errorCodes, type ErrorCode } from './errors';

/** RFC 9457 problem details as the API returns them. */
export const FieldError = z.object({ path: z.string(), message: z.string() }).openapi('FieldError');

export const Problem = z
  .object({
    type: z.string().openapi({ description: '`{errors_base}/<code>`: a page describing the code', example: 'https://errors.example.com/validation_error' }),
    title: z.string(),
    status: z.number().int(),
    code: z.enum(Object.keys(errorCodes) as [ErrorCode, ...ErrorCode[]]).openapi({ description: 'stable error code: branch on it' }),
    detail: z.string().optional(),
    instance: z.string().optional().openapi({ description: 'RFC 9457 `instance`: the occurrence (not sent today; `requestId` identifies it)' }),
    requestId: z.string(),
    errors: z.array(FieldError).optional(),
  })
  .openapi('Problem');

export const listEnvelope = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    nextCursor: z.string().nullable(),
    hasMore: z.boolean(),
  });

/** `limit` default 50, max 200 (our reading of the spec's unstated page size). */
export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 200;

export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(PAGE_LIMIT_MAX).default(PAGE_LIMIT_DEFAULT),
  cursor: z.string().min(1).optional(),
});

export const Timestamp = z.iso.datetime({ offset: true }).openapi({ example: '2026-11-21T09:30:00Z' });

export const IdParam = z.object({ id: z.string().min(1).max(64) });
export const ExternalIdParam = z.object({ externalId: z.string().min(1).max(200) });

/** Who did something: a user, an integration, the system (scheduled jobs) or an employee acting for themselves. */
export const Actor = z.object({ type: z.enum(['user', 'integration', 'system', 'employee']), id: z.string().nullable() });

export const EventEnvelope = z
  .object({
    id: z.string(),
    type: z.string(),
    createdAt: z.string(),
    apiVersion: z.literal('v1'),
    actor: Actor,
    locationId: z.string().nullable(),
    data: z.object({ object: z.record(z.string(), z.unknown()), previous: z.record(z.string(), z.unknown()).optional() }),
  })
  .openapi('Event');
export type EventEnvelope = z.infer<typeof EventEnvelope>;

/** Record counts of an ingestion batch (spec: Batch result), shared by the result and the integrations' batch list. */
export const BatchCounts = z.object({
  received: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  duplicate: z.number().int(),
  rejected: z.number().int(),
  held: z.number().int().optional().openapi({ description: 'of the stored records, those held for review (a locked pay period or closed day): they change no locked figure until a person accepts them' }),
});

export const BatchRecordStatus = z.enum(['created', 'updated', 'unchanged', 'duplicate', 'rejected']);

export const BatchRecordResult = z.object({
  index: z.number().int().min(0),
  externalId: z.string().nullable(),
  status: BatchRecordStatus,
  id: z.string().optional(),
  errors: z.array(FieldError).optional(),
  warnings: z.array(FieldError).optional(),
});

/** The 202 answer of every batch endpoint (spec: Batch result). */
export const BatchResult = BatchCounts.extend({
  batchId: z.string().openapi({ example: 'bat_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
  results: z.array(BatchRecordResult),
}).openapi('BatchResult');
export type BatchResult = z.output<typeof BatchResult>;

/** A reach of a permission as the internal token carries it. */
export const ReachShape = z.union([z.object({ type: z.literal('everyone') }), z.object({ type: z.enum(['org_units', 'locations', 'employee_set']), ids: z.array(z.string()) })]);

/** The principal the gateway establishes (kit: `Principal`), as internal commands pass it on. */
export const PrincipalShape = z.object({
  kind: z.enum(['user', 'integration', 'system', 'anonymous']),
  via: z.enum(['session', 'personal_key', 'integration_key', 'internal', 'public']),
  id: z.string().min(1),
  userId: z.string().optional(),
  integrationId: z.string().optional(),
  employeeId: z.string().nullable().optional(),
  keyId: z.string().optional(),
  sessionId: z.string().optional(),
  scopes: z.array(z.string()).optional(),
  permissions: z.record(z.string(), z.array(ReachShape)).optional(),
});
