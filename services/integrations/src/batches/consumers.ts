import { BatchCompletedEvent, serviceTable } from '@bop/contracts';
import { defineConsumer, formatPath, withoutNul } from '@bop/shared';
import { recordBatch } from './store';

/**
 * Keeps one row per ingestion batch of an integration from the areas' `<area>.batch.completed`
 * events (contract: BatchCompletedEvent). Batches sent by people, and those of integrations deleted
 * meanwhile, are not kept. An event that is not a BatchCompletedEvent is parked in dead_letters.
 */
export const batchConsumer = defineConsumer({
  name: 'ingestion-batches',
  topics: ['*'],
  // every area's `<area>.batch.completed`, listed so the bus leaves all other events out of this group's reads
  types: Object.keys(serviceTable).map((area) => `${area}.batch.completed`),
  async handle(ctx) {
    const { event } = ctx;
    const parsed = BatchCompletedEvent.safeParse(event.data?.object);
    if (!parsed.success) {
      // a producer's bug: parked in dead_letters (visible to ops) rather than dropped
      const issues = parsed.error.issues.map((i) => `${formatPath(i.path) || '(object)'}: ${i.message}`).join('; ');
      throw new Error(`${event.type} ${event.id}: data.object is not a BatchCompletedEvent (${issues})`);
    }
    // kept as sent, but storable: a NUL (which text and jsonb refuse) becomes U+FFFD (issue 13: such a
    // batch failed here and could not even be parked, so no later batch was recorded)
    const b = withoutNul(parsed.data);
    const integrationId = b.integrationId ?? (event.actor?.type === 'integration' ? event.actor.id : null);
    if (!integrationId) return;
    await recordBatch(ctx, b, integrationId, event.id);
  },
});
