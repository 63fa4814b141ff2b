import { route, type RouteDef } from '@bop/shared';
import { cancelWorkOrder, closeWorkOrder, createWorkOrder, getWorkOrder, listWorkOrders, patchWorkOrder, startWorkOrder } from './store';

export const workOrderRoutes = (): RouteDef[] => [
  route('GET /work-orders', async (ctx) => {
    return { body: await listWorkOrders(ctx.em, ctx.query, ctx.reach()) };
  }),

  route('POST /work-orders', async (ctx) => {
    return { status: 201, body: await createWorkOrder(ctx.em, ctx.body, ctx) };
  }),

  route('GET /work-orders/{id}', async (ctx) => {
    return { body: await getWorkOrder(ctx.em, ctx.params.id, ctx.reach()) };
  }),

  route('PATCH /work-orders/{id}', async (ctx) => {
    return { body: await patchWorkOrder(ctx.em, ctx.params.id, ctx.body, ctx) };
  }),

  route('POST /work-orders/{id}:start', async (ctx) => {
    return { body: await startWorkOrder(ctx.em, ctx.params.id, ctx) };
  }),

  route('POST /work-orders/{id}:close', async (ctx) => {
    return { body: await closeWorkOrder(ctx.em, ctx.params.id, ctx.body, ctx) };
  }),

  route('POST /work-orders/{id}:cancel', async (ctx) => {
    return { body: await cancelWorkOrder(ctx.em, ctx.params.id, ctx.body, ctx) };
  }),
];
