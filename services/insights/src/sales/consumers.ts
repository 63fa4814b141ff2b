import { defineConsumer, type ConsumerDef, type Work } from '@bop/shared';
import { salesContributions, type SalesContributionInput } from './contributions';
import { applySales } from './store';

const apply = async (w: Work, events: Array<{ id: string; type: string; data: { object: unknown } }>) => {
  const all: SalesContributionInput[] = [];
  for (const event of events) {
    const parsed = salesContributions(event.data.object);
    // a producer's bug: parked in dead_letters rather than dropped or guessed
    if (typeof parsed === 'string') throw new Error(`${event.type} ${event.id}: data.object is not a batch of recorded transactions (${parsed})`);
    for (const c of parsed) all.push(c);
  }
  await applySales(w, all);
};

/** Consumer of sales' `sales.transactions.recorded`: net sales and counts per location, day and interval; a burst of sales is one write. */
export const salesConsumer = defineConsumer({
  name: 'sales-read-model',
  topics: ['sales'],
  types: ['sales.transactions.recorded'],
  settleMs: 250,
  async handle(ctx) {
    await apply(ctx, [ctx.event]);
  },
  async handleBatch(ctx) {
    await apply(ctx, ctx.events.map((e) => e.event));
  },
});

export const salesConsumers: ConsumerDef[] = [salesConsumer];
