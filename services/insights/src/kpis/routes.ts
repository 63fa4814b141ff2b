import { route, type RouteDef } from '@bop/shared';
import { comparisonPeriod, daysIn } from './periods';
import { forecastFigures, kpiFigures, sumOf, UNAVAILABLE } from './figures';
import { forecastTotals } from '../forecasts/store';
import { periodSums } from './store';
import { queryLocations, type OrgUnitLocations } from '../locations/reach-store';

export const kpiRoutes = (inOrgUnits: OrgUnitLocations): RouteDef[] => [
  route('GET /kpis', async (ctx) => {
    const { from, to, compare } = ctx.query;
    const locationIds = await queryLocations(ctx, ctx.query, inOrgUnits);
    const sums = await periodSums(ctx, locationIds, from, to);
    let comparison = null;
    if (compare === 'forecast') {
      // the same days as scheduling forecast them (each day's last fit before it started)
      comparison = { compare, from, to, figures: forecastFigures(await forecastTotals(ctx, locationIds, from, to, daysIn(from, to))) };
    } else if (compare) {
      const period = comparisonPeriod(from, to, compare);
      comparison = { compare, ...period, figures: kpiFigures(sumOf((await periodSums(ctx, locationIds, period.from, period.to)).values())) };
    }
    return {
      status: 200,
      body: {
        from,
        to,
        locationIds,
        figures: kpiFigures(sumOf(sums.values())),
        byLocation: locationIds.map((locationId) => ({ locationId, figures: kpiFigures(sums.get(locationId)!) })),
        comparison,
        unavailable: UNAVAILABLE.map((u) => ({ ...u })),
      },
    };
  }),
];
