import { ok, route, type RouteDef } from '@bop/shared';
import { listFeatures, setFeature } from './store';
import { pageOf } from './catalogue-page';

export const featureRoutes = (): RouteDef[] => [
  route('GET /features', async (ctx) => ok(pageOf(await listFeatures(ctx), (f) => f.key, ctx.query))),

  route('POST /features/{key}:enable', async (ctx) => ok(await setFeature(ctx, ctx.params.key, true))),

  route('POST /features/{key}:disable', async (ctx) => ok(await setFeature(ctx, ctx.params.key, false))),
];
