import Decimal from 'decimal.js';
import { DateTime } from 'luxon';
import { z } from 'zod';
import { ReportRangeParams } from '@bop/contracts';
import { businessDayOf, findPlain, type Work } from '@bop/shared';
import { InsightsLocation } from '../locations/entities';
import { SalesDay, SalesInterval } from '../sales/entities';
import { dayText, money, rangeWhere } from '../reports/format';
import { defineReport, pageRows } from '../reports/registry';
import { forecastDays, NET_SALES, type ForecastOfDay } from './store';

interface AccuracyRow {
  key: string;
  businessDay: string | null;
  locationId: string | null;
  hour: string | null;
  forecast: Decimal;
  actual: Decimal;
  fittedAt: string | null;
}

/** The complete business days before today at each location (its time zone and cut-off). */
async function todays(w: Work, locationIds: string[]): Promise<{ today: Map<string, string>; zones: Map<string, string> }> {
  const locations = await findPlain(w.em, InsightsLocation, { id: { $in: locationIds } });
  return { today: new Map(locations.map((l) => [l.id, businessDayOf(w.now.toISOString(), l.timezone, l.businessDayCutoff)])), zones: new Map(locations.map((l) => [l.id, l.timezone])) };
}

const HOUR_MS = 3_600_000;

/** Per hour: each forecast hour of the complete days (from the day's first instant) against the net sales of the 15-minute intervals that start in it. */
async function hourRows(w: Work, forecasts: ForecastOfDay[], zones: Map<string, string>): Promise<AccuracyRow[]> {
  if (forecasts.length === 0) return [];
  const first = new Date(Math.min(...forecasts.map((f) => f.start.getTime())));
  const last = new Date(Math.max(...forecasts.map((f) => f.start.getTime() + f.hours.length * HOUR_MS)));
  const intervals = await w.em
    .createQueryBuilder(SalesInterval)
    .select(['locationId', 'intervalStart', 'netSales'])
    .where({ locationId: { $in: [...new Set(forecasts.map((f) => f.locationId))] }, intervalStart: { $gte: first, $lt: last } })
    .execute<Array<{ locationId: string; intervalStart: string | Date; netSales: string }>>('all', true);
  // a local hour starts off the UTC hour where the zone's offset has minutes (India: 30)
  const offsets = new Map(forecasts.map((f) => [f.locationId, f.start.getTime() % HOUR_MS]));
  const byHour = new Map<string, Decimal>();
  for (const i of intervals) {
    const at = new Date(i.intervalStart).getTime();
    const offset = offsets.get(i.locationId) ?? 0;
    const hour = `${i.locationId}|${at - (((at - offset) % HOUR_MS) + HOUR_MS) % HOUR_MS}`;
    byHour.set(hour, (byHour.get(hour) ?? new Decimal(0)).plus(i.netSales));
  }
  return forecasts.flatMap((f) =>
    f.hours.map((forecast, k) => {
      const at = f.start.getTime() + k * HOUR_MS;
      return {
        key: `${f.businessDay}|${f.locationId}|${new Date(at).toISOString()}`,
        businessDay: f.businessDay,
        locationId: f.locationId,
        hour: DateTime.fromMillis(at, { zone: zones.get(f.locationId) ?? 'UTC' }).toFormat('HH:00'),
        forecast,
        actual: byHour.get(`${f.locationId}|${at}`) ?? new Decimal(0),
        fittedAt: f.fittedAt.toISOString(),
      };
    }),
  ).filter((r) => !r.forecast.isZero() || !r.actual.isZero());
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
  params: ReportRangeParams.safeExtend({
    by: z.enum(['day', 'hour']).default('day').describe("`day` (the default): a row per location and business day; `hour`: per location, day and local hour of the forecast (the day's local hours from midnight, against the sales of the 15-minute intervals starting in them)"),
  }),
  columns: [
    { name: 'businessDay', type: 'date', unit: null, description: 'the business day (null on the total row)' },
    { name: 'locationId', type: 'text', unit: null, description: 'the location (null on the total row)' },
    { name: 'hour', type: 'text', unit: null, description: "with `by=hour`: the local hour's start, HH:00 (else null)" },
    { name: 'forecast', type: 'money', unit: 'money', description: 'the net sales forecast for the day as it stood when the day started' },
    { name: 'actual', type: 'money', unit: 'money', description: 'net sales, as `GET /kpis` counts them' },
    { name: 'error', type: 'money', unit: 'money', description: 'actual − forecast (positive: more was sold than forecast)' },
    { name: 'absoluteError', type: 'money', unit: 'money', description: '|actual − forecast| (the total row: their sum)' },
    { name: 'absolutePercentError', type: 'decimal', unit: '%', description: '|error| ÷ actual × 100 (null when actual is zero); the total row: the WAPE, Σ|error| ÷ Σ actual × 100' },
    { name: 'fittedAt', type: 'text', unit: null, description: 'when the forecast was fitted (ISO instant; null on the total row)' },
  ],
  async run(w, p, page) {
    if (p.locationIds.length === 0) return { rows: [], nextCursor: null };
    const { today, zones } = await todays(w, p.locationIds);
    const forecasts = [...(await forecastDays(w, NET_SALES, p.locationIds, p.from, p.to)).values()].filter((f) => today.has(f.locationId) && f.businessDay < today.get(f.locationId)!);
    let rows: AccuracyRow[];
    if (p.by === 'hour') rows = await hourRows(w, forecasts, zones);
    else {
      const sales = await w.em.createQueryBuilder(SalesDay).select(['locationId', 'businessDay', 'netSales']).where(rangeWhere(p)).execute<Array<{ locationId: string; businessDay: string | Date; netSales: string }>>('all', true);
      const actual = new Map(sales.map((s) => [`${s.locationId}|${dayText(s.businessDay)}`, new Decimal(s.netSales)]));
      rows = forecasts.map((f) => ({ key: `${f.businessDay}|${f.locationId}`, businessDay: f.businessDay, locationId: f.locationId, hour: null, forecast: f.total, actual: actual.get(`${f.locationId}|${f.businessDay}`) ?? new Decimal(0), fittedAt: f.fittedAt.toISOString() }));
    }
    if (rows.length === 0) return { rows: [], nextCursor: null };
    // each row's figures rounded once (to the cent), and the total of those: the rows add up to it
    const abs = (r: AccuracyRow) => new Decimal(money(r.actual)).minus(money(r.forecast)).abs();
    const total: AccuracyRow & { absoluteError: Decimal } = {
      key: '~total',
      businessDay: null,
      locationId: null,
      hour: null,
      forecast: rows.reduce((s, r) => s.plus(money(r.forecast)), new Decimal(0)),
      actual: rows.reduce((s, r) => s.plus(money(r.actual)), new Decimal(0)),
      fittedAt: null,
      absoluteError: rows.reduce((s, r) => s.plus(abs(r)), new Decimal(0)),
    };
    return pageRows(
      [...rows.map((r) => ({ ...r, absoluteError: abs(r) })), total],
      page,
      (r) => r.key,
      (r) => {
        const error = new Decimal(money(r.actual)).minus(money(r.forecast));
        return {
          businessDay: r.businessDay,
          locationId: r.locationId,
          hour: r.hour,
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
