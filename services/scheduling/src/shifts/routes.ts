import { employeeRecordScope, ownEmployeeId, route, type RouteContext, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { SchedulingConfig } from '../config';
import { schedulingSettings } from '../settings/company-settings';
import { createShift, getShift, listShifts, putShiftByExternalId, removeShift, updateShift, type ShiftCaller } from './store';
import { claimShift, myOpenShifts, myShifts, publishSchedule } from './publish-store';

export const shiftRoutes = (svc: ServiceRuntime<SchedulingConfig>): RouteDef[] => {
  const caller = (ctx: RouteContext<any, any, any>, reach = true): ShiftCaller => ({
    principal: ctx.principal,
    reach: reach ? ctx.reach() : { everyone: true },
    settings: (locationId) => schedulingSettings(svc.services, locationId, svc.config.SCHEDULING_WEEKLY_OVERTIME_HOURS, ctx.requestId),
    checkVersion: (v) => ctx.checkVersion(v),
  });
  return [
    route('GET /shifts', async (ctx) => {
      const { locationId, employeeId, position, status, open, from, to, limit, cursor } = ctx.query;
      const scope = employeeRecordScope(ctx.reach(), locationId);
      return { body: await listShifts(ctx.em, { scope, employeeId, position, status, open: open === undefined ? undefined : open === 'true', from, to }, { limit, cursor }) };
    }),

    route('POST /shifts', async (ctx) => {
      const b = ctx.body;
      const shift = await createShift(ctx.em, { ...b, employeeId: b.employeeId ?? null, notes: b.notes ?? null, externalId: b.externalId ?? null }, caller(ctx));
      return { status: 201, body: shift, headers: { Location: `/api/v1/shifts/${shift.id}` } };
    }),

    route('GET /shifts/external/{externalId}', async (ctx) => {
      return { body: await getShift(ctx.em, { externalId: ctx.params.externalId }, ctx.reach()) };
    }),

    route('PUT /shifts/external/{externalId}', async (ctx) => {
      const b = ctx.body;
      const r = await putShiftByExternalId(ctx.em, ctx.params.externalId, { ...b, employeeId: b.employeeId ?? null, notes: b.notes ?? null }, caller(ctx));
      return { status: r.status, body: r.body, headers: r.status === 201 ? { Location: `/api/v1/shifts/${r.body.id}` } : undefined };
    }),

    route('GET /shifts/{id}', async (ctx) => {
      return { body: await getShift(ctx.em, { id: ctx.params.id }, ctx.reach()) };
    }),

    route('PATCH /shifts/{id}', async (ctx) => {
      return { body: await updateShift(ctx.em, ctx.params.id, ctx.body, caller(ctx)) };
    }),

    route('DELETE /shifts/{id}', async (ctx) => {
      return { body: await removeShift(ctx.em, ctx.params.id, caller(ctx)) };
    }),

    route('POST /shifts/{id}:claim', async (ctx) => {
      return { body: await claimShift(ctx.em, ctx.params.id, ctx.body.employeeId, caller(ctx), false) };
    }),

    route('POST /schedules:publish', async (ctx) => {
      return { body: await publishSchedule(ctx.em, ctx.body, { principal: ctx.principal, reach: ctx.reach() }) };
    }),

    route('GET /me/shifts', async (ctx) => {
      const { from, to, limit, cursor } = ctx.query;
      return { body: await myShifts(ctx.em, ownEmployeeId(ctx.principal), { from, to }, { limit, cursor }) };
    }),

    route('GET /me/open-shifts', async (ctx) => {
      const { from, to, limit, cursor } = ctx.query;
      return { body: await myOpenShifts(ctx.em, ownEmployeeId(ctx.principal), { from, to }, { limit, cursor }) };
    }),

    route('POST /me/shifts/{id}:claim', async (ctx) => {
      return { body: await claimShift(ctx.em, ctx.params.id, ownEmployeeId(ctx.principal), caller(ctx, false), true) };
    }),
  ];
};
