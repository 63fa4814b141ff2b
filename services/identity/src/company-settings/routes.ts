import { ok, route, type RouteDef } from '@bop/shared';
import { getSettings, updateSettings } from './store';

export const companySettingsRoutes = (): RouteDef[] => [
  route('GET /company-settings', async (ctx) => ok(await getSettings(ctx))),

  route('PATCH /company-settings', async (ctx) => ok(await updateSettings(ctx, ctx.body))),
];
