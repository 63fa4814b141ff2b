import { route, type RouteDef } from '@bop/shared';
import { assertEveryone } from '../endpoints/store';
import { getDelivery, listDeliveries, retryDelivery } from './store';

export const deliveryRoutes = (): RouteDef[] => [
  route('GET /webhook-endpoints/{id}/deliveries', async (ctx) => {
    assertEveryone(ctx.reach());
    return { body: await listDeliveries(ctx, ctx.params.id, ctx.query) };
  }),

  route('GET /webhook-deliveries/{id}', async (ctx) => {
    assertEveryone(ctx.reach());
    return { body: await getDelivery(ctx, ctx.params.id) };
  }),

  route('POST /webhook-deliveries/{id}:retry', async (ctx) => {
    assertEveryone(ctx.reach());
    return { status: 202, body: await retryDelivery(ctx, ctx.params.id) };
  }),
];
