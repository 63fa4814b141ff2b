import type { FilterQuery } from '@mikro-orm/core';
import { decodeCursor, pageLimit, route, toPage, type RouteDef, type ServiceRuntime } from '@bop/shared';
import { Endpoint } from '../entities';
import type { WebhooksConfig } from '../config';
import { deliveryCounts } from '../store';
import { endpointDto } from '../dto';
import { assertEveryone, changeEndpoint, createEndpoint, deleteEndpoint, endpointView, lockEndpoint, pingEndpoint, retryFailed, rotateSecret } from '../actions/endpoints';
import type { TargetRules } from '../actions/targets';

export const targetRules = (c: WebhooksConfig): TargetRules => ({ allowPrivate: c.WEBHOOK_ALLOW_PRIVATE_NETWORKS, allowHttp: c.WEBHOOK_ALLOW_HTTP });

export const endpointRoutes = ({ config, clock }: ServiceRuntime<WebhooksConfig>): RouteDef[] => [
  route('GET /webhook-endpoints', async (ctx) => {
    assertEveryone(ctx.reach());
    const { limit, cursor, status } = ctx.query;
    const where: FilterQuery<Endpoint> = {};
    const after = decodeCursor(cursor);
    if (after) where.id = { $gt: after };
    if (status) where.status = status;
    const n = pageLimit(limit);
    const rows = await ctx.em.find(Endpoint, where, { orderBy: { id: 'asc' }, limit: n + 1 });
    const counts = await deliveryCounts(ctx.em, rows.slice(0, n).map((e) => e.id));
    return { body: toPage(rows, n, (e) => endpointDto(e, counts.get(e.id))) };
  }),

  route('POST /webhook-endpoints', async (ctx) => {
    assertEveryone(ctx.reach());
    const body = await createEndpoint(ctx.em, ctx.body, targetRules(config), clock.now());
    return { status: 201, body };
  }),

  route('PATCH /webhook-endpoints/{id}', async (ctx) => {
    assertEveryone(ctx.reach());
    const body = await ctx.em.transactional(async (em) => {
      const endpoint = await lockEndpoint(em, ctx.params.id);
      ctx.checkVersion(endpoint.version);
      await changeEndpoint(em, endpoint, ctx.body, targetRules(config), clock.now());
      return endpointView(em, endpoint);
    });
    return { body };
  }),

  route('DELETE /webhook-endpoints/{id}', async (ctx) => {
    assertEveryone(ctx.reach());
    await deleteEndpoint(ctx.em, ctx.params.id);
    return { status: 204 };
  }),

  route('POST /webhook-endpoints/{id}:rotate-secret', async (ctx) => {
    assertEveryone(ctx.reach());
    return { body: await rotateSecret(ctx.em, ctx.params.id, clock.now()) };
  }),

  route('POST /webhook-endpoints/{id}:ping', async (ctx) => {
    assertEveryone(ctx.reach());
    return { status: 202, body: await pingEndpoint(ctx.em, ctx.params.id, ctx.principal, clock.now()) };
  }),

  route('POST /webhook-endpoints/{id}:retry-failed', async (ctx) => {
    assertEveryone(ctx.reach());
    const queued = await retryFailed(ctx.em, ctx.params.id, clock.now());
    return { body: { endpointId: ctx.params.id, queued } };
  }),
];
