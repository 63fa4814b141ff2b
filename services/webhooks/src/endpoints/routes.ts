import { route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { WebhooksConfig } from '../config';
import { assertEveryone, createEndpoint, deleteEndpoint, listEndpoints, patchEndpoint, pingEndpoint, retryFailed, rotateSecret } from './store';
import { targetRules } from './targets';

export const endpointRoutes = ({ config, clock }: ServiceRuntime<WebhooksConfig>): RouteDef[] => [
  route('GET /webhook-endpoints', async (ctx) => {
    assertEveryone(ctx.reach());
    return { body: await listEndpoints(ctx.em, ctx.query) };
  }),

  route('POST /webhook-endpoints', async (ctx) => {
    assertEveryone(ctx.reach());
    const body = await createEndpoint(ctx.em, ctx.body, targetRules(config), clock.now());
    return { status: 201, body };
  }),

  route('PATCH /webhook-endpoints/{id}', async (ctx) => {
    assertEveryone(ctx.reach());
    const body = await patchEndpoint(ctx.em, ctx.params.id, ctx.body, targetRules(config), clock.now(), (version) => ctx.checkVersion(version));
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
