import { route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { PeopleConfig } from '../config';
import { peopleSettings } from '../settings/company-settings';
import { addPayRate, listPayRates } from './store';

export const payRateRoutes = (svc: ServiceRuntime<PeopleConfig>): RouteDef[] => [
  route('GET /employees/{id}/pay-rates', async (ctx) => {
    return { body: await listPayRates(ctx.em, ctx.params.id, ctx.query, ctx) };
  }),

  route('POST /employees/{id}/pay-rates', async (ctx) => {
    const positions = async () => (await peopleSettings(svc.services, ctx.requestId))?.positions ?? null;
    return { status: 201, body: (await addPayRate(ctx.em, ctx.params.id, ctx.body, ctx, positions)).rate };
  }),
];
