import { route, type RouteDef } from '@bop/shared';
import { listDisplayMetrics, pushDisplayMetrics } from './store';

export const displayMetricRoutes = (): RouteDef[] => [
  route('GET /display-metrics', async (ctx) => {
    return { body: await listDisplayMetrics(ctx, ctx.query) };
  }),

  route('POST /display-metrics', async (ctx) => {
    return { body: await pushDisplayMetrics(ctx, ctx.body) };
  }),
];
