import { employeeRecordScope, ownEmployeeId, route, type RouteDef } from '@bop/shared';
import { approveSwap, getSwap, listSwaps, rejectSwap, requestSwap } from './store';

export const swapRoutes = (): RouteDef[] => [
  route('GET /shift-swaps', async (ctx) => {
    const { status, locationId, employeeId, limit, cursor, updatedSince } = ctx.query;
    return { body: await listSwaps(ctx, { status, employeeId, scope: employeeRecordScope(ctx.reach(), locationId) }, { limit, cursor, updatedSince }) };
  }),

  route('POST /shift-swaps', async (ctx) => {
    const swap = await requestSwap(ctx, ctx.body);
    return { status: 201, body: swap, headers: { Location: `/api/v1/shift-swaps/${swap.id}` } };
  }),

  route('GET /shift-swaps/{id}', async (ctx) => {
    return { body: await getSwap(ctx, ctx.params.id) };
  }),

  route('POST /shift-swaps/{id}:approve', async (ctx) => {
    return { body: await approveSwap(ctx, ctx.params.id) };
  }),

  route('POST /shift-swaps/{id}:reject', async (ctx) => {
    return { body: await rejectSwap(ctx, ctx.params.id, ctx.body.reason) };
  }),

  route('GET /me/shift-swaps', async (ctx) => {
    const { limit, cursor } = ctx.query;
    return { body: await listSwaps(ctx, { employeeId: ownEmployeeId(ctx.principal) }, { limit, cursor }) };
  }),

  route('POST /me/shift-swaps', async (ctx) => {
    const swap = await requestSwap(ctx, ctx.body, ownEmployeeId(ctx.principal));
    return { status: 201, body: swap, headers: { Location: `/api/v1/me/shift-swaps` } };
  }),
];
