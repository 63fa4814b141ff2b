import type { z } from 'zod';
import type { BatchCompletedEvent, IngestionBatchListQuery } from '@bop/contracts';
import { mapPage, findPage, type EntityManager } from '@bop/shared';
import { IngestionBatch } from './entities';
import { batchDto } from './dto';

export async function listBatches(em: EntityManager, integrationId: string, query: z.output<typeof IngestionBatchListQuery>) {
  const { limit, cursor, from, rejectedOnly } = query;
  const page = await findPage(
    em,
    IngestionBatch,
    [{ integrationId }, from && { createdAt: { $gte: new Date(from) } }, rejectedOnly && { rejected: { $gt: 0 } }],
    { limit, cursor },
  );
  return mapPage(page, batchDto);
}

/** Keeps the batch once (by its id), unless its integration was deleted meanwhile. */
export async function recordBatch(em: EntityManager, b: z.output<typeof BatchCompletedEvent>, integrationId: string, eventId: string): Promise<void> {
  await em.execute(
    `insert into "integrations"."ingestion_batches"
       ("id", "integration_id", "source", "endpoint", "received", "created", "updated", "unchanged", "duplicate", "rejected", "rejected_records", "created_at", "event_id")
     select ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?
     where exists (select 1 from "integrations"."integrations" where "id" = ?)
     on conflict ("id") do nothing`,
    [
      b.batchId,
      integrationId,
      b.source,
      b.endpoint,
      b.received,
      b.created,
      b.updated,
      b.unchanged,
      b.duplicate,
      b.rejected,
      JSON.stringify(b.rejectedRecords ?? []),
      new Date(b.createdAt),
      eventId,
      integrationId,
    ],
  );
}
