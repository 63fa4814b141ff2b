import { internalRoute, now, ok, route, type InternalRouteDef, type RouteDef, type ServiceRuntime } from '@bop/shared';
import { PersonalDataExportRequest } from '@bop/contracts';
import type { PeopleConfig } from '../config';
import { getProfile, patchProfile, peopleDatasets } from './store';
import { exportPersonalData } from './export-store';

export const profileRoutes = (svc: ServiceRuntime<PeopleConfig>): RouteDef[] => [
  route('GET /me/profile', async (ctx) => {
    return { body: await getProfile(ctx.em, ctx.principal) };
  }),

  route('PATCH /me/profile', async (ctx) => {
    return { body: await patchProfile(ctx.em, ctx.principal, ctx.body) };
  }),

  route('GET /me/export', async (ctx) => {
    const { stream, fileName } = await exportPersonalData(ctx.em, svc.services, ctx.principal, now(), ctx.requestId);
    return { stream, headers: { 'Content-Type': 'application/zip', 'Content-Disposition': `attachment; filename="${fileName}"`, 'Cache-Control': 'private, no-store' } };
  }),
];

/** People's own part of a personal-data export (the same datasets `/me/export` holds). */
export const profileInternalRoutes = (): InternalRouteDef[] => [
  internalRoute('POST /internal/personal-data:export', { body: PersonalDataExportRequest }, async (ctx) => ok({ service: 'people', datasets: await peopleDatasets(ctx.em, ctx.body.employeeId) })),
];
