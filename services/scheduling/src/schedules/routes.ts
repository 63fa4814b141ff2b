import { route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { SchedulingConfig } from '../config';
import { schedulingSettings } from '../settings/company-settings';
import { generateSchedule, scheduleView } from './store';

export const scheduleRoutes = (svc: ServiceRuntime<SchedulingConfig>): RouteDef[] => [
  route('GET /schedules', async (ctx) => {
    const settings = () => schedulingSettings(svc.services, ctx.query.locationId, svc.config.SCHEDULING_WEEKLY_OVERTIME_HOURS, ctx.requestId);
    return { body: await scheduleView(ctx.em, ctx.query, { reach: ctx.reach(), settings }) };
  }),

  route('POST /schedules:generate', async (ctx) => {
    const settings = () => schedulingSettings(svc.services, ctx.body.locationId, svc.config.SCHEDULING_WEEKLY_OVERTIME_HOURS, ctx.requestId);
    return { body: await generateSchedule(ctx.em, ctx.body, { principal: ctx.principal, reach: ctx.reach(), settings }) };
  }),
];
