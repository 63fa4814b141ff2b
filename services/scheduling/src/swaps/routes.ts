import { employeeRecordScope, ownEmployeeId, route, type RouteDef } from '@bop/shared';
import { approveSwap, getSwap, listSwaps, rejectSwap, requestSwap } from './store';

export const swapRoutes = (): RouteDef[] => [
  route('GET /shift-swaps', async (ctx) => {
    const { status, locationId, employeeId, limit, cursor } = ctx.query;
    return { body: await listSwaps(ctx.em, { status, employeeId, scope: employeeRecordScope(ctx.reach(), locationId) }, { limit, cursor }) };
  }),

  route('POST /shift-swaps', async (ctx) => {
    const swap = await requestSwap(ctx.em, ctx.body, { principal: ctx.principal, reach: ctx.reach() });
    return { status: 201, body: swap, headers: { Location: `/api/v1/shift-swaps/${swap.id}` } };
  }),

  route('GET /shift-swaps/{id}', async (ctx) => {
    return { body: await getSwap(ctx.em, ctx.params.id, ctx.reach()) };
  }),

  route('POST /shift-swaps/{id}:approve', async (ctx) => {
    return { body: await approveSwap(ctx.em, ctx.params.id, { principal: ctx.principal, reach: ctx.reach() }) };
  }),

  route('POST /shift-swaps/{id}:reject', async (ctx) => {
    return { body: await rejectSwap(ctx.em, ctx.params.id, ctx.body.reason, { principal: ctx.principal, reach: ctx.reach() }) };
  }),

  route('GET /me/shift-swaps', async (ctx) => {
    const { limit, cursor } = ctx.query;
    return { body: await listSwaps(ctx.em, { employeeId: ownEmployeeId(ctx.principal) }, { limit, cursor }) };
  }),

  route('POST /me/shift-swaps', async (ctx) => {
    const own = ownEmployeeId(ctx.principal);
    const swap = await requestSwap(ctx.em, ctx.body, { principal: ctx.principal, reach: null, own });
    return { status: 201, body: swap, headers: { Location: `/api/v1/me/shift-swaps` } };
  }),
];
