import { z } from 'zod';
import { DisplayMetricInput } from '@bop/contracts';
import { defineConsumer } from '@bop/shared';
import { INSIGHTS_PREFIX, storeDisplayMetrics } from './store';

/** `insights.display_kpis.updated`: a location's KPIs of today, as insights' display-feed worker sends them. */
const DisplayKpis = z.object({
  locationId: z.string().min(1).max(64),
  measuredAt: z.iso.datetime({ offset: true }),
  metrics: z.array(DisplayMetricInput.refine((m) => m.name.startsWith(INSIGHTS_PREFIX), `a KPI's name starts with "${INSIGHTS_PREFIX}"`)).max(100),
});

/**
 * Stores the KPIs insights feeds as the location's display metrics (source `insights`), so
 * `GET /display-metrics` and the team-display page show them within seconds of the sales.
 */
export const displayMetricConsumers = [
  defineConsumer({
    name: 'insights-display-metrics',
    topics: ['insights'],
    types: ['insights.display_kpis.updated'],
    handle: async (ctx) => {
      const { event } = ctx;
      const parsed = DisplayKpis.safeParse(event.data.object);
      // a producer's bug: parked in dead_letters rather than dropped
      if (!parsed.success) throw new Error(`${event.type} ${event.id}: data.object is not a location's KPIs (${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')})`);
      const { locationId, measuredAt, metrics } = parsed.data;
      if (metrics.length > 0) await storeDisplayMetrics(ctx, locationId, metrics, new Date(measuredAt), 'insights');
    },
  }),
];
