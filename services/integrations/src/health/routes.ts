import { ok, route, type RouteDef } from '@bop/shared';
import { selfIntegrationId } from '../integrations/access';
import { recordHeartbeat } from './store';

export const healthRoutes = (): RouteDef[] => [
  route('POST /integrations/self/heartbeat', async (ctx) => {
    return ok(await recordHeartbeat(ctx, selfIntegrationId(ctx), ctx.body));
  }),
];
