import { employeeRecordScope, ownEmployeeId, route, type RouteContext, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { SchedulingConfig } from '../config';
import { schedulingSettings } from '../settings/company-settings';
import { createShift, getShift, listShifts, putShiftByExternalId, removeShift, updateShift, type SettingsOf } from './store';
import { claimShift, myOpenShifts, myShifts, publishSchedule } from './publish-store';

export const shiftRoutes = (svc: ServiceRuntime<SchedulingConfig>): RouteDef[] => {
  /** a location's settings as the request reads them (identity's and time's, on demand) */
  const settingsOf =
    (ctx: RouteContext<any, any, any>): SettingsOf =>
    (locationId) =>
      schedulingSettings(ctx.services, locationId, svc.config.SCHEDULING_WEEKLY_OVERTIME_HOURS, ctx.requestId);
  return [
    route('GET /shifts', async (ctx) => {
      const { locationId, employeeId, position, status, open, from, to, limit, cursor, updatedSince } = ctx.query;
      const scope = employeeRecordScope(ctx.reach(), locationId);
      return { body: await listShifts(ctx, { scope, employeeId, position, status, open: open === undefined ? undefined : open === 'true', from, to }, { limit, cursor, updatedSince }) };
    }),

    route('POST /shifts', async (ctx) => {
      const b = ctx.body;
      const shift = await createShift(ctx, { ...b, employeeId: b.employeeId ?? null, notes: b.notes ?? null, externalId: b.externalId ?? null }, settingsOf(ctx));
      return { status: 201, body: shift, headers: { Location: `/api/v1/shifts/${shift.id}` } };
    }),

    route('GET /shifts/external/{externalId}', async (ctx) => {
      return { body: await getShift(ctx, { externalId: ctx.params.externalId }) };
    }),

    route('PUT /shifts/external/{externalId}', async (ctx) => {
      const b = ctx.body;
      const r = await putShiftByExternalId(ctx, ctx.params.externalId, { ...b, employeeId: b.employeeId ?? null, notes: b.notes ?? null }, settingsOf(ctx));
      return { status: r.status, body: r.body, headers: r.status === 201 ? { Location: `/api/v1/shifts/${r.body.id}` } : undefined };
    }),

    route('GET /shifts/{id}', async (ctx) => {
      return { body: await getShift(ctx, { id: ctx.params.id }) };
    }),

    route('PATCH /shifts/{id}', async (ctx) => {
      return { body: await updateShift(ctx, ctx.params.id, ctx.body, settingsOf(ctx)) };
    }),

    route('DELETE /shifts/{id}', async (ctx) => {
      return { body: await removeShift(ctx, ctx.params.id) };
    }),

    route('POST /shifts/{id}:claim', async (ctx) => {
      return { body: await claimShift(ctx, ctx.params.id, ctx.body.employeeId, settingsOf(ctx), false) };
    }),

    route('POST /schedules:publish', async (ctx) => {
      return { body: await publishSchedule(ctx, ctx.body) };
    }),

    route('GET /me/shifts', async (ctx) => {
      const { from, to, limit, cursor } = ctx.query;
      return { body: await myShifts(ctx, ownEmployeeId(ctx.principal), { from, to }, { limit, cursor }) };
    }),

    route('GET /me/open-shifts', async (ctx) => {
      const { from, to, limit, cursor } = ctx.query;
      return { body: await myOpenShifts(ctx, ownEmployeeId(ctx.principal), { from, to }, { limit, cursor }) };
    }),

    route('POST /me/shifts/{id}:claim', async (ctx) => {
      return { body: await claimShift(ctx, ctx.params.id, ownEmployeeId(ctx.principal), settingsOf(ctx), true) };
    }),
  ];
};
