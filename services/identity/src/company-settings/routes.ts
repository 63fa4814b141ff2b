import { ok, route, type RouteDef } from '@bop/shared';
import { getSettings, updateSettings } from './store';

export const companySettingsRoutes = (): RouteDef[] => [
  route('GET /company-settings', async (ctx) => ok(await getSettings(ctx.em))),

  route('PATCH /company-settings', async (ctx) => ok(await updateSettings(ctx.em, ctx.body, ctx.principal, { expectVersion: ctx.checkVersion }))),
];
