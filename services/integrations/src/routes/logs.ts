import type { FilterQuery } from '@mikro-orm/core';
import { created, decodeCursor, newId, ok, pageLimit, route, toPage, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { IntegrationsConfig } from '../config';
import { IntegrationLog } from '../entities';
import { logDto } from '../dto';
import { levelRank } from '../domain/logs';
import { assertManager, findIntegration, selfIntegrationId } from './access';

export const logRoutes = (svc: ServiceRuntime<IntegrationsConfig>): RouteDef[] => [
  route('POST /integrations/self/logs', async (ctx) => {
    const integration = await findIntegration(ctx.em, selfIntegrationId(ctx));
    const entry = ctx.em.create(IntegrationLog, {
      id: newId('integrationLog'),
      integrationId: integration.id,
      level: ctx.body.level,
      levelRank: levelRank(ctx.body.level),
      message: ctx.body.message,
      context: ctx.body.context ?? null,
      createdAt: svc.clock.now(),
    });
    await ctx.em.flush();
    return created(logDto(entry));
  }),

  // `level` = that level and the more severe ones; oldest first from `from`
  route('GET /integrations/{id}/logs', async (ctx) => {
    assertManager(ctx);
    const integration = await findIntegration(ctx.em, ctx.params.id);
    const { limit, cursor, level, from } = ctx.query;
    const where: FilterQuery<IntegrationLog> = { integrationId: integration.id };
    const after = decodeCursor(cursor);
    if (after) where.id = { $gt: after };
    if (level) where.levelRank = { $gte: levelRank(level) };
    if (from) where.createdAt = { $gte: new Date(from) };
    const n = pageLimit(limit);
    const rows = await ctx.em.find(IntegrationLog, where, { orderBy: { id: 'asc' }, limit: n + 1 });
    return ok(toPage(rows, n, logDto));
  }),
];
