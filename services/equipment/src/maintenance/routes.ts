import { route, type RouteDef } from '@bop/shared';
import { formChecker } from './forms-client';
import { createPlan, listDue, listPlans, patchPlan } from './store';

export const maintenanceRoutes = (): RouteDef[] => [
  route('GET /maintenance-plans', async (ctx) => {
    return { body: await listPlans(ctx, ctx.query) };
  }),

  route('POST /maintenance-plans', async (ctx) => {
    return { status: 201, body: await createPlan(ctx, ctx.body, formChecker(ctx.services, ctx.requestId)) };
  }),

  route('PATCH /maintenance-plans/{id}', async (ctx) => {
    return { body: await patchPlan(ctx, ctx.params.id, ctx.body, formChecker(ctx.services, ctx.requestId)) };
  }),

  route('GET /maintenance-due', async (ctx) => {
    return { body: await listDue(ctx, ctx.query) };
  }),
];
