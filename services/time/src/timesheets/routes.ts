import { employeeRecordScope, ownEmployeeId, route, type RouteDef } from '@bop/shared';
import { timeSettings } from '../settings/company-settings';
import { decideTimesheet, getTimesheet, listTimesheets } from './store';

export const timesheetRoutes = (): RouteDef[] => [
  route('GET /time/timesheets', async (ctx) => {
    const { locationId, limit, cursor, updatedSince, ...f } = ctx.query;
    return { body: await listTimesheets(ctx, { ...f, scope: employeeRecordScope(ctx.reach(), locationId) }, { limit, cursor, updatedSince }) };
  }),

  route('GET /time/timesheets/{id}', async (ctx) => {
    return { body: await getTimesheet(ctx, ctx.params.id, { reach: ctx.reach() }) };
  }),

  route('POST /time/timesheets/{id}:approve', async (ctx) => {
    return { body: await decideTimesheet(ctx, ctx.params.id, { approve: true }, () => timeSettings(ctx.services, ctx.requestId)) };
  }),

  route('POST /time/timesheets/{id}:reject', async (ctx) => {
    return { body: await decideTimesheet(ctx, ctx.params.id, { approve: false, reason: ctx.body.reason }, () => timeSettings(ctx.services, ctx.requestId)) };
  }),

  route('GET /me/timesheets', async (ctx) => {
    const { limit, cursor } = ctx.query;
    return { body: await listTimesheets(ctx, { employeeId: ownEmployeeId(ctx.principal) }, { limit, cursor }) };
  }),
];
