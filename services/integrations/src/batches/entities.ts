import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export interface RejectedRecord {
  index: number;
  externalId: string | null;
  errors: Array<{ path: string; message: string }>;
}

/** One ingestion batch of an integration, from an area's `<area>.batch.completed` event; id = batchId. */
export const IngestionBatch = defineEntity({
  name: 'IngestionBatch',
  tableName: 'ingestion_batches',
  properties: {
    id: p.string().primary(),
    integrationId: p.string(),
    source: p.string(),
    endpoint: p.string(),
    received: p.integer(),
    created: p.integer(),
    updated: p.integer(),
    unchanged: p.integer(),
    duplicate: p.integer(),
    rejected: p.integer(),
    rejectedRecords: p.json<RejectedRecord[]>(),
    createdAt: p.datetime(),
    eventId: p.string(),
  },
});
export type IngestionBatch = InferEntity<typeof IngestionBatch>;
