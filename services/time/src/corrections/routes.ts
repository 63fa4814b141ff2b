import { employeeRecordScope, ownEmployeeId, route, type RouteDef } from '@bop/shared';
import { timeSettings } from '../settings/company-settings';
import { approveCorrection, cancelCorrection, listCorrections, rejectCorrection, requestCorrection } from './store';

export const correctionRoutes = (): RouteDef[] => [
  route('GET /time/punch-corrections', async (ctx) => {
    const { status, locationId, limit, cursor, updatedSince } = ctx.query;
    return { body: await listCorrections(ctx, { status, scope: employeeRecordScope(ctx.reach(), locationId) }, { limit, cursor, updatedSince }) };
  }),

  route('POST /time/punch-corrections/{id}:approve', async (ctx) => {
    return { body: await approveCorrection(ctx, ctx.params.id, () => timeSettings(ctx.services, ctx.requestId)) };
  }),

  route('POST /time/punch-corrections/{id}:reject', async (ctx) => {
    return { body: await rejectCorrection(ctx, ctx.params.id, ctx.body.reason) };
  }),

  route('GET /me/punch-corrections', async (ctx) => {
    const { limit, cursor } = ctx.query;
    return { body: await listCorrections(ctx, { employeeId: ownEmployeeId(ctx.principal) }, { limit, cursor }) };
  }),

  route('POST /me/punch-corrections', async (ctx) => {
    return { status: 201, body: await requestCorrection(ctx, ownEmployeeId(ctx.principal), ctx.body, () => timeSettings(ctx.services, ctx.requestId)) };
  }),

  route('POST /me/punch-corrections/{id}:cancel', async (ctx) => {
    return { body: await cancelCorrection(ctx, ctx.params.id, ownEmployeeId(ctx.principal)) };
  }),
];
