import { ok, route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { IntegrationsConfig } from '../config';
import { healthDto } from '../dto';
import { findIntegration, selfIntegrationId } from './access';

export const healthRoutes = (svc: ServiceRuntime<IntegrationsConfig>): RouteDef[] => [
  // spec supplement: Integration health any → the reported ok|warning|error; last heartbeat and message updated
  route('POST /integrations/self/heartbeat', async (ctx) => {
    const id = selfIntegrationId(ctx);
    const dto = await ctx.em.transactional(async (em) => {
      const row = await findIntegration(em, id, true);
      const now = svc.clock.now();
      // not a change of the record: no version, no event (heartbeats come every few minutes)
      row.reportedHealth = ctx.body.health;
      row.healthMessage = ctx.body.message ?? null;
      row.lastHeartbeatAt = now;
      return healthDto(row, now);
    });
    return ok(dto);
  }),
];
