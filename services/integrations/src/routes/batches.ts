import type { FilterQuery } from '@mikro-orm/core';
import { decodeCursor, ok, pageLimit, route, toPage, type RouteDef } from '@bop/shared';
import { IngestionBatch } from '../entities';
import { batchDto } from '../dto';
import { assertManager, findIntegration } from './access';

export const batchRoutes = (): RouteDef[] => [
  route('GET /integrations/{id}/batches', async (ctx) => {
    assertManager(ctx);
    const integration = await findIntegration(ctx.em, ctx.params.id);
    const { limit, cursor, from, rejectedOnly } = ctx.query;
    const where: FilterQuery<IngestionBatch> = { integrationId: integration.id };
    const after = decodeCursor(cursor);
    if (after) where.id = { $gt: after };
    if (from) where.createdAt = { $gte: new Date(from) };
    if (rejectedOnly) where.rejected = { $gt: 0 };
    const n = pageLimit(limit);
    const rows = await ctx.em.find(IngestionBatch, where, { orderBy: { id: 'asc' }, limit: n + 1 });
    return ok(toPage(rows, n, batchDto));
  }),
];
