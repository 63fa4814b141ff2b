import { employeeRecordScope, ownEmployeeId, route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { TimeConfig } from '../config';
import { timeSettings } from '../settings/company-settings';
import { approveCorrection, cancelCorrection, listCorrections, rejectCorrection, requestCorrection } from './store';

export const correctionRoutes = (svc: ServiceRuntime<TimeConfig>): RouteDef[] => [
  route('GET /time/punch-corrections', async (ctx) => {
    const { status, locationId, limit, cursor } = ctx.query;
    return { body: await listCorrections(ctx.em, { status, scope: employeeRecordScope(ctx.reach(), locationId) }, { limit, cursor }) };
  }),

  route('POST /time/punch-corrections/{id}:approve', async (ctx) => {
    return { body: await approveCorrection(ctx.em, ctx.params.id, { principal: ctx.principal, reach: ctx.reach(), settings: () => timeSettings(svc.services, ctx.requestId) }) };
  }),

  route('POST /time/punch-corrections/{id}:reject', async (ctx) => {
    return { body: await rejectCorrection(ctx.em, ctx.params.id, ctx.body.reason, { principal: ctx.principal, reach: ctx.reach() }) };
  }),

  route('GET /me/punch-corrections', async (ctx) => {
    const { limit, cursor } = ctx.query;
    return { body: await listCorrections(ctx.em, { employeeId: ownEmployeeId(ctx.principal) }, { limit, cursor }) };
  }),

  route('POST /me/punch-corrections', async (ctx) => {
    return { status: 201, body: await requestCorrection(ctx.em, ownEmployeeId(ctx.principal), ctx.body, () => timeSettings(svc.services, ctx.requestId)) };
  }),

  route('POST /me/punch-corrections/{id}:cancel', async (ctx) => {
    return { body: await cancelCorrection(ctx.em, ctx.params.id, ownEmployeeId(ctx.principal), ctx.principal) };
  }),
];
