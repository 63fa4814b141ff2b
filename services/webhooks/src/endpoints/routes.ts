import { route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { WebhooksConfig } from '../config';
import { assertEveryone, createEndpoint, deleteEndpoint, listEndpoints, patchEndpoint, pingEndpoint, retryFailed, rotateSecret } from './store';
import { targetRules } from './targets';

export const endpointRoutes = ({ config }: ServiceRuntime<WebhooksConfig>): RouteDef[] => [
  route('GET /webhook-endpoints', async (ctx) => {
    assertEveryone(ctx.reach());
    return { body: await listEndpoints(ctx, ctx.query) };
  }),

  route('POST /webhook-endpoints', async (ctx) => {
    assertEveryone(ctx.reach());
    const body = await createEndpoint(ctx, ctx.body, targetRules(config));
    return { status: 201, body };
  }),

  route('PATCH /webhook-endpoints/{id}', async (ctx) => {
    assertEveryone(ctx.reach());
    return { body: await patchEndpoint(ctx, ctx.params.id, ctx.body, targetRules(config)) };
  }),

  route('DELETE /webhook-endpoints/{id}', async (ctx) => {
    assertEveryone(ctx.reach());
    await deleteEndpoint(ctx, ctx.params.id);
    return { status: 204 };
  }),

  route('POST /webhook-endpoints/{id}:rotate-secret', async (ctx) => {
    assertEveryone(ctx.reach());
    return { body: await rotateSecret(ctx, ctx.params.id) };
  }),

  route('POST /webhook-endpoints/{id}:ping', async (ctx) => {
    assertEveryone(ctx.reach());
    return { status: 202, body: await pingEndpoint(ctx, ctx.params.id) };
  }),

  route('POST /webhook-endpoints/{id}:retry-failed', async (ctx) => {
    assertEveryone(ctx.reach());
    const queued = await retryFailed(ctx, ctx.params.id);
    return { body: { endpointId: ctx.params.id, queued } };
  }),
];
