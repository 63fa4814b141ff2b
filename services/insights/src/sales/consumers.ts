import { defineConsumer, type ConsumerDef, type Work } from '@bop/shared';
import { salesContributions, type SalesContributionInput } from './contributions';
import { applySales } from './store';
import { markAlertsDirty } from '../alerts/evaluation-store';
import { KPIS_MOVED_BY } from '../alerts/windows';
import { markDisplayFeedDirty } from '../display-feed/store';

const apply = async (w: Work, events: Array<{ id: string; type: string; data: { object: unknown } }>) => {
  const all: SalesContributionInput[] = [];
  for (const event of events) {
    const parsed = salesContributions(event.data.object);
    // a producer's bug: parked in dead_letters rather than dropped or guessed
    if (typeof parsed === 'string') throw new Error(`${event.type} ${event.id}: data.object is not a batch of recorded transactions (${parsed})`);
    for (const c of parsed) all.push(c);
  }
  await applySales(w, all);
  // the alert rules watching these locations' sales KPIs: evaluated by the alert worker's next round
  await markAlertsDirty(w, all.map((c) => c.locationId), KPIS_MOVED_BY.sales);
  // the team displays of these locations: today's KPIs sent by the display-feed worker (throttled)
  await markDisplayFeedDirty(w, all.map((c) => c.locationId));
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
