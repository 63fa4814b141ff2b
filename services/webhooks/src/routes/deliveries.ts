import type { FilterQuery } from '@mikro-orm/core';
import { decodeCursor, NotFound, pageLimit, route, toPage, type RouteDef, type ServiceRuntime } from '@bop/shared';
import { Delivery, Endpoint } from '../entities';
import type { WebhooksConfig } from '../config';
import { deliveryDetailDto, deliveryDto } from '../dto';
import { assertEveryone, retryDelivery } from '../actions/endpoints';

export const deliveryRoutes = ({ clock }: ServiceRuntime<WebhooksConfig>): RouteDef[] => [
  route('GET /webhook-endpoints/{id}/deliveries', async (ctx) => {
    assertEveryone(ctx.reach());
    const endpoint = await ctx.em.findOne(Endpoint, { id: ctx.params.id });
    if (!endpoint) throw new NotFound('webhook endpoint', ctx.params.id);
    const { limit, cursor, status, from } = ctx.query;
    const where: FilterQuery<Delivery> = { endpointId: endpoint.id };
    const after = decodeCursor(cursor);
    if (after) where.id = { $gt: after };
    if (status) where.status = status;
    if (from) where.createdAt = { $gte: new Date(from) };
    const n = pageLimit(limit);
    const rows = await ctx.em.find(Delivery, where, { orderBy: { id: 'asc' }, limit: n + 1, exclude: ['body'] });
    return { body: toPage(rows, n, deliveryDto) };
  }),

  route('GET /webhook-deliveries/{id}', async (ctx) => {
    assertEveryone(ctx.reach());
    const delivery = await ctx.em.findOne(Delivery, { id: ctx.params.id });
    if (!delivery) throw new NotFound('webhook delivery', ctx.params.id);
    return { body: deliveryDetailDto(delivery) };
  }),

  route('POST /webhook-deliveries/{id}:retry', async (ctx) => {
    assertEveryone(ctx.reach());
    return { status: 202, body: await retryDelivery(ctx.em, ctx.params.id, clock.now()) };
  }),
];
