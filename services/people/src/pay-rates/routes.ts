import { route, type RouteDef } from '@bop/shared';
import { positionsOf } from '../employees/routes';
import { addPayRate, listPayRates } from './store';

export const payRateRoutes = (): RouteDef[] => [
  route('GET /employees/{id}/pay-rates', async (ctx) => {
    return { body: await listPayRates(ctx, ctx.params.id, ctx.query) };
  }),

  route('POST /employees/{id}/pay-rates', async (ctx) => {
    return { status: 201, body: (await addPayRate(ctx, ctx.params.id, ctx.body, positionsOf(ctx))).rate };
  }),
];
