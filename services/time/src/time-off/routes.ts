import { employeeRecordScope, ownEmployeeId, route, type RouteDef } from '@bop/shared';
import { timeSettings } from '../settings/company-settings';
import { createPolicy, createType, listPolicies, listTypes, typeNameConflict, updatePolicy } from './policy-store';
import { adjustBalance, listBalances, myBalances } from './balance-store';
import { approveRequest, cancelRequest, createRequest, listRequests, rejectRequest } from './request-store';

export const timeOffRoutes = (): RouteDef[] => [
  // types and policies are company-wide: any reach reads them
  route('GET /time-off/types', async (ctx) => {
    return { body: await listTypes(ctx, ctx.query) };
  }),

  route(
    'POST /time-off/types',
    async (ctx) => {
      return { status: 201, body: await createType(ctx, ctx.body) };
    },
    { conflict: typeNameConflict },
  ),

  route('GET /time-off/policies', async (ctx) => {
    const { typeId, limit, cursor, updatedSince } = ctx.query;
    return { body: await listPolicies(ctx, { typeId }, { limit, cursor, updatedSince }) };
  }),

  route('POST /time-off/policies', async (ctx) => {
    return { status: 201, body: await createPolicy(ctx, ctx.body) };
  }),

  // spec: "balances recalculated from the change date" — the change date in the company's time zone
  route('PATCH /time-off/policies/{id}', async (ctx) => {
    const timezone = async () => (await timeSettings(ctx.services, ctx.requestId)).timezone;
    return { body: await updatePolicy(ctx, ctx.params.id, ctx.body, timezone) };
  }),

  route('GET /time-off/balances', async (ctx) => {
    const { limit, cursor, ...q } = ctx.query;
    const reach = ctx.reach();
    return { body: await listBalances(ctx, { ...q, scope: employeeRecordScope(reach, undefined) }, { limit, cursor }, reach) };
  }),

  route('POST /time-off/balances:adjust', async (ctx) => {
    return { body: await adjustBalance(ctx, ctx.body) };
  }),

  route('GET /time-off/requests', async (ctx) => {
    const { locationId, limit, cursor, updatedSince, ...f } = ctx.query;
    return { body: await listRequests(ctx, { ...f, scope: employeeRecordScope(ctx.reach(), locationId) }, { limit, cursor, updatedSince }) };
  }),

  route('POST /time-off/requests', async (ctx) => {
    return { status: 201, body: await createRequest(ctx, ctx.body, ctx.reach()) };
  }),

  route('POST /time-off/requests/{id}:approve', async (ctx) => {
    return { body: await approveRequest(ctx, ctx.params.id) };
  }),

  route('POST /time-off/requests/{id}:reject', async (ctx) => {
    return { body: await rejectRequest(ctx, ctx.params.id, ctx.body.reason) };
  }),

  route('GET /me/time-off/balances', async (ctx) => {
    return { body: await myBalances(ctx, ownEmployeeId(ctx.principal), ctx.query) };
  }),

  route('GET /me/time-off/requests', async (ctx) => {
    const { status, limit, cursor } = ctx.query;
    return { body: await listRequests(ctx, { status, employeeId: ownEmployeeId(ctx.principal) }, { limit, cursor }) };
  }),

  // on the employee's own: no reach (another's is not theirs to ask for)
  route('POST /me/time-off/requests', async (ctx) => {
    return { status: 201, body: await createRequest(ctx, { ...ctx.body, employeeId: ownEmployeeId(ctx.principal) }, null) };
  }),

  route('POST /me/time-off/requests/{id}:cancel', async (ctx) => {
    return { body: await cancelRequest(ctx, ctx.params.id, ownEmployeeId(ctx.principal)) };
  }),
];
