import { assertCompanyWide, route, type RouteDef } from '@bop/shared';
import { adjustForecast, forecastFor, listSpecialDays, putSpecialDay, removeSpecialDay } from './store';

export const forecastRoutes = (): RouteDef[] => [
  route('GET /forecasts', async (ctx) => {
    return { body: await forecastFor(ctx.em, ctx.query, ctx.reach()) };
  }),

  route('POST /forecasts/adjustments', async (ctx) => {
    return { body: await adjustForecast(ctx.em, ctx.body, { principal: ctx.principal, reach: ctx.reach() }) };
  }),

  route('GET /special-days', async (ctx) => {
    ctx.reach();
    return { body: await listSpecialDays(ctx.em, ctx.query) };
  }),

  // special days are the company's: set and removed at reach Everyone
  route('PUT /special-days/{date}', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Special days');
    return putSpecialDay(ctx.em, ctx.params.date, ctx.body);
  }),

  route('DELETE /special-days/{date}', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Special days');
    await removeSpecialDay(ctx.em, ctx.params.date);
    return { status: 204 };
  }),
];
