import { employeeRecordScope, ownEmployeeId, route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { TimeConfig } from '../config';
import { timeSettings } from '../settings/company-settings';
import { decideTimesheet, getTimesheet, listTimesheets } from './store';

export const timesheetRoutes = (svc: ServiceRuntime<TimeConfig>): RouteDef[] => [
  route('GET /time/timesheets', async (ctx) => {
    const { locationId, limit, cursor, ...f } = ctx.query;
    return { body: await listTimesheets(ctx.em, { ...f, scope: employeeRecordScope(ctx.reach(), locationId) }, { limit, cursor }) };
  }),

  route('GET /time/timesheets/{id}', async (ctx) => {
    return { body: await getTimesheet(ctx.em, ctx.params.id, { reach: ctx.reach() }) };
  }),

  route('POST /time/timesheets/{id}:approve', async (ctx) => {
    const caller = { principal: ctx.principal, reach: ctx.reach(), settings: () => timeSettings(svc.services, ctx.requestId), checkVersion: (v: number) => ctx.checkVersion(v) };
    return { body: await decideTimesheet(ctx.em, ctx.params.id, { approve: true }, caller) };
  }),

  route('POST /time/timesheets/{id}:reject', async (ctx) => {
    const caller = { principal: ctx.principal, reach: ctx.reach(), settings: () => timeSettings(svc.services, ctx.requestId), checkVersion: (v: number) => ctx.checkVersion(v) };
    return { body: await decideTimesheet(ctx.em, ctx.params.id, { approve: false, reason: ctx.body.reason }, caller) };
  }),

  route('GET /me/timesheets', async (ctx) => {
    const { limit, cursor } = ctx.query;
    return { body: await listTimesheets(ctx.em, { employeeId: ownEmployeeId(ctx.principal) }, { limit, cursor }) };
  }),
];
