import type { z } from 'zod';
import type { BatchCompletedEvent, IngestionBatchListQuery } from '@bop/contracts';
import { mapPage, findPage, type Work } from '@bop/shared';
import { IngestionBatch } from './entities';
import { Integration } from '../integrations/entities';
import { batchDto } from './dto';

export async function listBatches(w: Work, integrationId: string, query: z.output<typeof IngestionBatchListQuery>) {
  const { limit, cursor, from, rejectedOnly } = query;
  const page = await findPage(
    w.em,
    IngestionBatch,
    [{ integrationId }, from && { createdAt: { $gte: new Date(from) } }, rejectedOnly && { rejected: { $gt: 0 } }],
    { limit, cursor },
  );
  return mapPage(page, batchDto);
}

/** Keeps the batch once (by its id), unless its integration was deleted meanwhile. */
export async function recordBatch(w: Work, b: z.output<typeof BatchCompletedEvent>, integrationId: string, eventId: string): Promise<void> {
  // a delete between the two statements fails the insert's foreign key; the consumer retries and finds it gone
  if ((await w.em.count(Integration, { id: integrationId })) === 0) return;
  await w.em
    .createQueryBuilder(IngestionBatch)
    .insert({
      id: b.batchId,
      integrationId,
      source: b.source,
      endpoint: b.endpoint,
      received: b.received,
      created: b.created,
      updated: b.updated,
      unchanged: b.unchanged,
      duplicate: b.duplicate,
      rejected: b.rejected,
      rejectedRecords: b.rejectedRecords ?? [],
      createdAt: new Date(b.createdAt),
      eventId,
    })
    .onConflict('id')
    .ignore()
    .execute();
}
