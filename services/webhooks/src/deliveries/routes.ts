import { route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { WebhooksConfig } from '../config';
import { assertEveryone } from '../endpoints/store';
import { getDelivery, listDeliveries, retryDelivery } from './store';

export const deliveryRoutes = ({ clock }: ServiceRuntime<WebhooksConfig>): RouteDef[] => [
  route('GET /webhook-endpoints/{id}/deliveries', async (ctx) => {
    assertEveryone(ctx.reach());
    return { body: await listDeliveries(ctx.em, ctx.params.id, ctx.query) };
  }),

  route('GET /webhook-deliveries/{id}', async (ctx) => {
    assertEveryone(ctx.reach());
    return { body: await getDelivery(ctx.em, ctx.params.id) };
  }),

  route('POST /webhook-deliveries/{id}:retry', async (ctx) => {
    assertEveryone(ctx.reach());
    return { status: 202, body: await retryDelivery(ctx.em, ctx.params.id, clock.now()) };
  }),
];
