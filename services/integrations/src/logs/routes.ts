import { created, ok, route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { IntegrationsConfig } from '../config';
import { assertManager, selfIntegrationId } from '../integrations/access';
import { findIntegration } from '../integrations/store';
import { appendLog, listLogs } from './store';

export const logRoutes = (svc: ServiceRuntime<IntegrationsConfig>): RouteDef[] => [
  route('POST /integrations/self/logs', async (ctx) => {
    const integration = await findIntegration(ctx.em, selfIntegrationId(ctx));
    return created(await appendLog(ctx.em, integration.id, ctx.body, svc.clock.now()));
  }),

  route('GET /integrations/{id}/logs', async (ctx) => {
    assertManager(ctx);
    const integration = await findIntegration(ctx.em, ctx.params.id);
    return ok(await listLogs(ctx.em, integration.id, ctx.query));
  }),
];
