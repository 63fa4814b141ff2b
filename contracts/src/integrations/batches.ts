import { z } from '../zod';
import { BatchCounts, ListQuery, Timestamp } from '../common';

export const BatchRejectedRecord = z.object({
  index: z.number().int().min(0),
  externalId: z.string().nullable(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })),
});

/**
 * `data.object` of the internal event `<area>.batch.completed` (e.g. `sales.batch.completed`) that an
 * area service records when it has applied an ingestion batch (a `202 batch result`). The integrations
 * service keeps one row per batch for `GET /integrations/{id}/batches`.
 *
 * - record it in the same transaction as the batch's effects, `aggregateType` `batch`, `aggregateId` the batchId;
 * - `integrationId`: the calling integration (null for people); the envelope's actor (type `integration`) also names it;
 * - `endpoint`: the catalogue key that received it, e.g. `POST /sales/transactions:batch`;
 * - `rejectedRecords`: the rejected results only (at most the batch size), never record contents.
 */
export const BatchCompletedEvent = z
  .object({
    batchId: z.string().regex(/^bat_/, 'A batch id (bat_…).'),
    integrationId: z.string().nullable().optional(),
    source: z.string().max(200),
    endpoint: z.string().max(200),
    received: z.number().int().min(0),
    created: z.number().int().min(0),
    updated: z.number().int().min(0),
    unchanged: z.number().int().min(0).default(0),
    duplicate: z.number().int().min(0).default(0),
    rejected: z.number().int().min(0),
    rejectedRecords: z.array(BatchRejectedRecord).max(10_000).optional(),
    createdAt: Timestamp,
  })
  .openapi('BatchCompletedEvent');
export type BatchCompletedEvent = z.output<typeof BatchCompletedEvent>;

/** Whether an event type is an area's `<area>.batch.completed`. */
export const isBatchCompletedType = (type: string): boolean => /^[a-z_]+\.batch\.completed$/.test(type);

export const IngestionBatch = BatchCounts.extend({
    batchId: z.string(),
    integrationId: z.string(),
    source: z.string(),
    endpoint: z.string(),
    rejectedRecords: z.array(BatchRejectedRecord),
    createdAt: Timestamp,
  })
  .openapi('IngestionBatch');

const booleanQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

export const IngestionBatchListQuery = ListQuery.extend({
  from: Timestamp.optional().openapi({ description: 'batches completed at or after this time' }),
  rejectedOnly: booleanQuery.optional().openapi({ description: '`true`: only batches with rejected records' }),
});
