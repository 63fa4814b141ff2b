import { ok, route, type RouteDef } from '@bop/shared';
import { assertManager } from '../integrations/access';
import { findIntegration } from '../integrations/store';
import { listBatches } from './store';

export const batchRoutes = (): RouteDef[] => [
  route('GET /integrations/{id}/batches', async (ctx) => {
    assertManager(ctx);
    const integration = await findIntegration(ctx, ctx.params.id);
    return ok(await listBatches(ctx, integration.id, ctx.query));
  }),
];
