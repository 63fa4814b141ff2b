import { created, ok, route, type RouteDef } from '@bop/shared';
import { assertManager, selfIntegrationId } from '../integrations/access';
import { findIntegration } from '../integrations/store';
import { appendLog, listLogs } from './store';

export const logRoutes = (): RouteDef[] => [
  route('POST /integrations/self/logs', async (ctx) => {
    const integration = await findIntegration(ctx, selfIntegrationId(ctx));
    return created(await appendLog(ctx, integration.id, ctx.body));
  }),

  route('GET /integrations/{id}/logs', async (ctx) => {
    assertManager(ctx);
    const integration = await findIntegration(ctx, ctx.params.id);
    return ok(await listLogs(ctx, integration.id, ctx.query));
  }),
];
