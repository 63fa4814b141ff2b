import { route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { EquipmentConfig } from '../config';
import { formChecker } from './forms-client';
import { createPlan, listDue, listPlans, patchPlan } from './store';

export const maintenanceRoutes = (svc: ServiceRuntime<EquipmentConfig>): RouteDef[] => [
  route('GET /maintenance-plans', async (ctx) => {
    return { body: await listPlans(ctx.em, ctx.query, ctx.reach()) };
  }),

  route('POST /maintenance-plans', async (ctx) => {
    return { status: 201, body: await createPlan(ctx.em, ctx.body, ctx, formChecker(svc.services, ctx.requestId)) };
  }),

  route('PATCH /maintenance-plans/{id}', async (ctx) => {
    return { body: await patchPlan(ctx.em, ctx.params.id, ctx.body, ctx, formChecker(svc.services, ctx.requestId)) };
  }),

  route('GET /maintenance-due', async (ctx) => {
    return { body: await listDue(ctx.em, ctx.query, ctx.reach()) };
  }),
];
