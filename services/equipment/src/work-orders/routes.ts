import { route, type RouteDef } from '@bop/shared';
import { cancelWorkOrder, closeWorkOrder, createWorkOrder, getWorkOrder, listWorkOrders, patchWorkOrder, startWorkOrder } from './store';

export const workOrderRoutes = (): RouteDef[] => [
  route('GET /work-orders', async (ctx) => {
    return { body: await listWorkOrders(ctx, ctx.query) };
  }),

  route('POST /work-orders', async (ctx) => {
    return { status: 201, body: await createWorkOrder(ctx, ctx.body) };
  }),

  route('GET /work-orders/{id}', async (ctx) => {
    return { body: await getWorkOrder(ctx, ctx.params.id) };
  }),

  route('PATCH /work-orders/{id}', async (ctx) => {
    return { body: await patchWorkOrder(ctx, ctx.params.id, ctx.body) };
  }),

  route('POST /work-orders/{id}:start', async (ctx) => {
    return { body: await startWorkOrder(ctx, ctx.params.id) };
  }),

  route('POST /work-orders/{id}:close', async (ctx) => {
    return { body: await closeWorkOrder(ctx, ctx.params.id, ctx.body) };
  }),

  route('POST /work-orders/{id}:cancel', async (ctx) => {
    return { body: await cancelWorkOrder(ctx, ctx.params.id, ctx.body) };
  }),
];
