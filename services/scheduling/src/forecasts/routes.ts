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

  // the company's special days are set and removed at reach Everyone, a location's with the location in reach (store.ts)
  route('PUT /special-days/{date}', async (ctx) => {
    if (!ctx.query.locationId) assertCompanyWide(ctx.reach(), 'Company special days');
    return putSpecialDay(ctx, ctx.params.date, ctx.body, ctx.query.locationId);
  }),

  route('DELETE /special-days/{date}', async (ctx) => {
    if (!ctx.query.locationId) assertCompanyWide(ctx.reach(), 'Company special days');
    await removeSpecialDay(ctx, ctx.params.date, ctx.query.locationId);
    return { status: 204 };
  }),
];
