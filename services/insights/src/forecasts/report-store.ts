import Decimal from 'decimal.js';
import { ReportRangeParams } from '@bop/contracts';
import { businessDayOf, findPlain, type Work } from '@bop/shared';
import { InsightsLocation } from '../locations/entities';
import { SalesDay } from '../sales/entities';
import { dayText, money, rangeWhere } from '../reports/format';
import { defineReport, pageRows } from '../reports/registry';
import { forecastDays, NET_SALES } from './store';

interface AccuracyRow {
  businessDay: string | null;
  locationId: string | null;
  forecast: Decimal;
  actual: Decimal;
  fittedAt: string | null;
}

/** The complete business days before today at each location (its time zone and cut-off). */
async function todays(w: Work, locationIds: string[]): Promise<Map<string, string>> {
  const locations = await findPlain(w.em, InsightsLocation, { id: { $in: locationIds } });
  return new Map(locations.map((l) => [l.id, businessDayOf(w.now.toISOString(), l.timezone, l.businessDayCutoff)]));
}

const pct = (n: Decimal, d: Decimal) => (d.isZero() ? null : n.times(100).div(d).toFixed(2, Decimal.ROUND_HALF_UP));

/**
 * Forecast accuracy: per location and complete business day with a net-sales forecast, the forecast
 * that counted for the day (the last fit before it started, with the adjustments made before it started),
 * the actual net sales, the error and the absolute % error; and a last row (location and day empty)
 * of the totals, whose absolute % error is the WAPE: Σ|actual − forecast| ÷ Σ actual × 100.
 */
export const forecastAccuracy = defineReport({
  key: 'forecast-accuracy',
  title: 'Forecast accuracy',
  description:
    "Net sales forecast (scheduling's last fit before the business day started, with the adjustments made before it) against the actual net sales, per location and complete business day that had a forecast; the last row (locationId and businessDay null) totals the range and gives the WAPE.",
  params: ReportRangeParams,
  columns: [
    { name: 'businessDay', type: 'date', unit: null, description: 'the business day (null on the total row)' },
    { name: 'locationId', type: 'text', unit: null, description: 'the location (null on the total row)' },
    { name: 'forecast', type: 'money', unit: 'money', description: 'the net sales forecast for the day as it stood when the day started' },
    { name: 'actual', type: 'money', unit: 'money', description: 'net sales, as `GET /kpis` counts them' },
    { name: 'error', type: 'money', unit: 'money', description: 'actual − forecast (positive: more was sold than forecast)' },
    { name: 'absoluteError', type: 'money', unit: 'money', description: '|actual − forecast| (the total row: their sum)' },
    { name: 'absolutePercentError', type: 'decimal', unit: '%', description: '|error| ÷ actual × 100 (null when actual is zero); the total row: the WAPE, Σ|error| ÷ Σ actual × 100' },
    { name: 'fittedAt', type: 'text', unit: null, description: 'when the forecast was fitted (ISO instant; null on the total row)' },
  ],
  async run(w, p, page) {
    if (p.locationIds.length === 0) return { rows: [], nextCursor: null };
    const today = await todays(w, p.locationIds);
    const forecasts = [...(await forecastDays(w, NET_SALES, p.locationIds, p.from, p.to)).values()].filter((f) => today.has(f.locationId) && f.businessDay < today.get(f.locationId)!);
    const sales = await w.em.createQueryBuilder(SalesDay).select(['locationId', 'businessDay', 'netSales']).where(rangeWhere(p)).execute<Array<{ locationId: string; businessDay: string | Date; netSales: string }>>('all', true);
    const actual = new Map(sales.map((s) => [`${s.locationId}|${dayText(s.businessDay)}`, new Decimal(s.netSales)]));
    const rows: AccuracyRow[] = forecasts.map((f) => ({ businessDay: f.businessDay, locationId: f.locationId, forecast: f.total, actual: actual.get(`${f.locationId}|${f.businessDay}`) ?? new Decimal(0), fittedAt: f.fittedAt.toISOString() }));
    if (rows.length === 0) return { rows: [], nextCursor: null };
    // each row's figures rounded once (to the cent), and the total of those: the rows add up to it
    const abs = (r: AccuracyRow) => new Decimal(money(r.actual)).minus(money(r.forecast)).abs();
    const total: AccuracyRow & { absoluteError: Decimal } = {
      businessDay: null,
      locationId: null,
      forecast: rows.reduce((s, r) => s.plus(money(r.forecast)), new Decimal(0)),
      actual: rows.reduce((s, r) => s.plus(money(r.actual)), new Decimal(0)),
      fittedAt: null,
      absoluteError: rows.reduce((s, r) => s.plus(abs(r)), new Decimal(0)),
    };
    return pageRows(
      [...rows.map((r) => ({ ...r, absoluteError: abs(r), key: `${r.businessDay}|${r.locationId}` })), { ...total, key: '~total' }],
      page,
      (r) => r.key,
      (r) => {
        const error = new Decimal(money(r.actual)).minus(money(r.forecast));
        return {
          businessDay: r.businessDay,
          locationId: r.locationId,
          forecast: money(r.forecast),
          actual: money(r.actual),
          error: error.toFixed(2),
          absoluteError: r.absoluteError.toFixed(2),
          absolutePercentError: pct(r.absoluteError, new Decimal(money(r.actual))),
          fittedAt: r.fittedAt,
        };
      },
    );
  },
});
