import { assertCompanyWide, route, type RouteDef } from '@bop/shared';
import { adjustForecast, forecastFor, listSpecialDays, putSpecialDay, removeSpecialDay } from './store';

export const forecastRoutes = (): RouteDef[] => [
  route('GET /forecasts', async (ctx) => {
    return { body: await forecastFor(ctx, ctx.query, ctx.reach()) };
  }),

  route('POST /forecasts/adjustments', async (ctx) => {
    return { body: await adjustForecast(ctx, ctx.body) };
  }),

  route('GET /special-days', async (ctx) => {
    return { body: await listSpecialDays(ctx, ctx.query) };
  }),

  // special days are the company's: set and removed at reach Everyone
  route('PUT /special-days/{date}', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Special days');
    return putSpecialDay(ctx, ctx.params.date, ctx.body);
  }),

  route('DELETE /special-days/{date}', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Special days');
    await removeSpecialDay(ctx, ctx.params.date);
    return { status: 204 };
  }),
];
