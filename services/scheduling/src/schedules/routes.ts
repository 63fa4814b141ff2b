import { route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { SchedulingConfig } from '../config';
import { schedulingSettings } from '../settings/company-settings';
import { generateSchedule, scheduleView } from './store';

export const scheduleRoutes = (svc: ServiceRuntime<SchedulingConfig>): RouteDef[] => [
  route('GET /schedules', async (ctx) => {
    const settings = () => schedulingSettings(ctx.services, ctx.query.locationId, svc.config.SCHEDULING_WEEKLY_OVERTIME_HOURS, ctx.requestId);
    return { body: await scheduleView(ctx, ctx.query, settings) };
  }),

  // reads and solves outside any transaction (the solver may take seconds); the drafts are written in one at the end
  route(
    'POST /schedules:generate',
    async (ctx) => {
      const settings = () => schedulingSettings(ctx.services, ctx.body.locationId, svc.config.SCHEDULING_WEEKLY_OVERTIME_HOURS, ctx.requestId);
      return { body: await generateSchedule(ctx, ctx.body, settings, (fn) => ctx.transaction(fn)) };
    },
    { transaction: false },
  ),
];
