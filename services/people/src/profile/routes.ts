import { internalRoute, ok, route, type InternalRouteDef, type RouteDef } from '@bop/shared';
import { PersonalDataExportRequest } from '@bop/contracts';
import { getProfile, patchProfile, peopleDatasets } from './store';
import { exportPersonalData } from './export-store';

export const profileRoutes = (): RouteDef[] => [
  route('GET /me/profile', async (ctx) => {
    return { body: await getProfile(ctx) };
  }),

  route('PATCH /me/profile', async (ctx) => {
    return { body: await patchProfile(ctx, ctx.body) };
  }),

  route('GET /me/export', async (ctx) => {
    const { stream, fileName } = await exportPersonalData(ctx, ctx.requestId);
    return { stream, headers: { 'Content-Type': 'application/zip', 'Content-Disposition': `attachment; filename="${fileName}"`, 'Cache-Control': 'private, no-store' } };
  }),
];

/** People's own part of a personal-data export (the same datasets `/me/export` holds). */
export const profileInternalRoutes = (): InternalRouteDef[] => [
  // a read: no transaction
  internalRoute('POST /internal/personal-data:export', { body: PersonalDataExportRequest }, async (ctx) => ok({ service: 'people', datasets: await peopleDatasets(ctx, ctx.body.employeeId) }), { transaction: false }),
];
