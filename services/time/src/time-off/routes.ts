import { employeeRecordScope, ownEmployeeId, route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { TimeConfig } from '../config';
import { timeSettings } from '../settings/company-settings';
import { createPolicy, createType, listPolicies, listTypes, updatePolicy } from './policy-store';
import { adjustBalance, listBalances, myBalances } from './balance-store';
import { approveRequest, cancelRequest, createRequest, listRequests, rejectRequest } from './request-store';

export const timeOffRoutes = (svc: ServiceRuntime<TimeConfig>): RouteDef[] => [
  // types and policies are company-wide: any reach reads them
  route('GET /time-off/types', async (ctx) => {
    return { body: await listTypes(ctx.em, ctx.query) };
  }),

  route('POST /time-off/types', async (ctx) => {
    return { status: 201, body: await createType(ctx.em, ctx.body, ctx.reach()) };
  }),

  route('GET /time-off/policies', async (ctx) => {
    const { typeId, limit, cursor } = ctx.query;
    return { body: await listPolicies(ctx.em, { typeId }, { limit, cursor }) };
  }),

  route('POST /time-off/policies', async (ctx) => {
    return { status: 201, body: await createPolicy(ctx.em, ctx.body, ctx.reach()) };
  }),

  // spec: "balances recalculated from the change date" — the change date in the company's time zone
  route('PATCH /time-off/policies/{id}', async (ctx) => {
    const timezone = async () => (await timeSettings(svc.services, ctx.requestId)).timezone;
    return { body: await updatePolicy(ctx.em, ctx.params.id, ctx.body, { reach: ctx.reach(), checkVersion: (v) => ctx.checkVersion(v), timezone }) };
  }),

  route('GET /time-off/balances', async (ctx) => {
    const { limit, cursor, ...q } = ctx.query;
    const reach = ctx.reach();
    return { body: await listBalances(ctx.em, { ...q, scope: employeeRecordScope(reach, undefined) }, { limit, cursor }, reach) };
  }),

  route('POST /time-off/balances:adjust', async (ctx) => {
    return { body: await adjustBalance(ctx.em, ctx.body, { principal: ctx.principal, reach: ctx.reach() }) };
  }),

  route('GET /time-off/requests', async (ctx) => {
    const { locationId, limit, cursor, ...f } = ctx.query;
    return { body: await listRequests(ctx.em, { ...f, scope: employeeRecordScope(ctx.reach(), locationId) }, { limit, cursor }) };
  }),

  route('POST /time-off/requests', async (ctx) => {
    return { status: 201, body: await createRequest(ctx.em, ctx.body, { principal: ctx.principal, reach: ctx.reach() }) };
  }),

  route('POST /time-off/requests/{id}:approve', async (ctx) => {
    return { body: await approveRequest(ctx.em, ctx.params.id, { principal: ctx.principal, reach: ctx.reach(), checkVersion: (v) => ctx.checkVersion(v) }) };
  }),

  route('POST /time-off/requests/{id}:reject', async (ctx) => {
    return { body: await rejectRequest(ctx.em, ctx.params.id, ctx.body.reason, { principal: ctx.principal, reach: ctx.reach(), checkVersion: (v) => ctx.checkVersion(v) }) };
  }),

  route('GET /me/time-off/balances', async (ctx) => {
    return { body: await myBalances(ctx.em, ownEmployeeId(ctx.principal), ctx.query) };
  }),

  route('GET /me/time-off/requests', async (ctx) => {
    const { status, limit, cursor } = ctx.query;
    return { body: await listRequests(ctx.em, { status, employeeId: ownEmployeeId(ctx.principal) }, { limit, cursor }) };
  }),

  route('POST /me/time-off/requests', async (ctx) => {
    return { status: 201, body: await createRequest(ctx.em, { ...ctx.body, employeeId: ownEmployeeId(ctx.principal) }, { principal: ctx.principal, reach: null }) };
  }),

  route('POST /me/time-off/requests/{id}:cancel', async (ctx) => {
    return { body: await cancelRequest(ctx.em, ctx.params.id, ownEmployeeId(ctx.principal), ctx.principal) };
  }),
];
