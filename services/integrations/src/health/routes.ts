import { ok, route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { IntegrationsConfig } from '../config';
import { selfIntegrationId } from '../integrations/access';
import { recordHeartbeat } from './store';

export const healthRoutes = (svc: ServiceRuntime<IntegrationsConfig>): RouteDef[] => [
  route('POST /integrations/self/heartbeat', async (ctx) => {
    return ok(await recordHeartbeat(ctx.em, selfIntegrationId(ctx), ctx.body, svc.clock));
  }),
];
