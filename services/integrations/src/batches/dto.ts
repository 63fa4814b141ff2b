import type { IngestionBatch } from './entities';

export function batchDto(b: IngestionBatch) {
  return {
    batchId: b.id,
    integrationId: b.integrationId,
    source: b.source,
    endpoint: b.endpoint,
    received: b.received,
    created: b.created,
    updated: b.updated,
    unchanged: b.unchanged,
    duplicate: b.duplicate,
    rejected: b.rejected,
    rejectedRecords: b.rejectedRecords,
    createdAt: b.createdAt.toISOString(),
  };
}
