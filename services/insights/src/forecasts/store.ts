import Decimal from 'decimal.js';
import { DateTime } from 'luxon';
import { findPlain, resolveLocations, type Work } from '@bop/shared';
import { ForecastAdjustmentDay, ForecastDay } from './entities';
import { dayOf } from '../kpis/store';

/** The drivers insights compares with: scheduling's forecasts of net sales and of completed sales. */
export const NET_SALES = 'net_sales';
export const TRANSACTIONS = 'transactions';
/** an adjustment of every driver of a location and day */
const ALL_DRIVERS = '*';

/** A fit as scheduling's internal `scheduling.forecast.fitted` carries it. */
export interface FittedForecast {
  locationId: string;
  driver: string;
  fittedAt: string;
  days: Array<{ date: string; start: string; total: string; hours: string[] }>;
}

/** An adjustment as `forecast.updated` carries it. */
export interface ForecastAdjustmentChange {
  locationId: string;
  driver: string | null;
  date: string;
  percent: number;
  version: number;
  updatedAt: string;
}

/**
 * The instant each business day starts at a location: its cut-off, local time (insights' replica of the
 * location); a location not replicated yet: `fallback` of the day (the fit's first hour), else UTC midnight.
 */
async function dayStarts(w: Work, locationId: string): Promise<(day: string, fallback?: string) => number> {
  const loc = (await resolveLocations(w, [{ locationId }])).byId.get(locationId);
  return (day, fallback) => {
    if (loc) return DateTime.fromISO(`${day}T${loc.businessDayCutoff}`, { zone: loc.timezone }).toMillis();
    return Date.parse(fallback ?? `${day}T00:00:00Z`);
  };
}

/**
 * Keeps a fit's days that had not started when it was made, each replacing an older fit of the day
 * (a fit delivered late, or again, changes nothing). A day already under way keeps the forecast it had.
 * Answers the days it changed.
 */
export async function applyFit(w: Work, f: FittedForecast): Promise<string[]> {
  const fittedAt = Date.parse(f.fittedAt);
  const startOf = await dayStarts(w, f.locationId);
  const ahead = f.days.filter((d) => fittedAt < startOf(d.date, d.start));
  if (ahead.length === 0) return [];
  const held = new Map(
    (await w.em.find(ForecastDay, { locationId: f.locationId, driver: f.driver, businessDay: { $in: ahead.map((d) => d.date) } })).map((r) => [dayOf(r.businessDay), r]),
  );
  const changed: string[] = [];
  for (const d of ahead) {
    const row = held.get(d.date);
    if (row && new Date(row.fittedAt).getTime() > fittedAt) continue;
    const values = { fittedAt: new Date(fittedAt), total: d.total, hours: d.hours, start: new Date(d.start) };
    if (row) Object.assign(row, values);
    else w.em.create(ForecastDay, { locationId: f.locationId, driver: f.driver, businessDay: d.date, ...values });
    changed.push(d.date);
  }
  await w.em.flush();
  return changed;
}

/**
 * Keeps an adjustment made before its business day started at the location (by its version: an older
 * or repeated one changes nothing); one made once the day is under way does not count, as for the fit.
 * Answers whether it changed the day.
 */
export async function applyAdjustment(w: Work, a: ForecastAdjustmentChange): Promise<boolean> {
  const startOf = await dayStarts(w, a.locationId);
  if (Date.parse(a.updatedAt) >= startOf(a.date)) return false;
  const key = { locationId: a.locationId, driver: a.driver ?? ALL_DRIVERS, businessDay: a.date };
  const held = await w.em.findOne(ForecastAdjustmentDay, key);
  if (held && held.version >= a.version) return false;
  if (held) Object.assign(held, { percent: String(a.percent), version: a.version });
  else w.em.create(ForecastAdjustmentDay, { ...key, percent: String(a.percent), version: a.version });
  await w.em.flush();
  return true;
}

/** A day's forecast of a driver as scheduling answers it: its total and hours × (1 + percent/100) of each adjustment of the driver and of every driver. */
export interface ForecastOfDay {
  locationId: string;
  businessDay: string;
  fittedAt: Date;
  total: Decimal;
  hours: Decimal[];
  start: Date;
  adjustmentPercent: Decimal;
}

/** The forecast days of `driver` at these locations over business days `from`..`to` (only the days that have one), adjustments applied. */
export async function forecastDays(w: Work, driver: string, locationIds: string[], from: string, to: string): Promise<Map<string, ForecastOfDay>> {
  const out = new Map<string, ForecastOfDay>();
  if (locationIds.length === 0) return out;
  const where = { locationId: { $in: locationIds }, businessDay: { $gte: from, $lte: to } };
  const days = await findPlain(w.em, ForecastDay, { ...where, driver });
  const adjustments = await findPlain(w.em, ForecastAdjustmentDay, { ...where, driver: { $in: [driver, ALL_DRIVERS] } });
  const factors = new Map<string, Decimal>();
  for (const a of adjustments) {
    const key = `${a.locationId}|${dayOf(a.businessDay)}`;
    // as scheduling compounds them: each × max(0, 1 + percent/100)
    factors.set(key, (factors.get(key) ?? new Decimal(1)).times(Decimal.max(0, new Decimal(a.percent).div(100).plus(1))));
  }
  for (const d of days) {
    const day = dayOf(d.businessDay);
    const factor = factors.get(`${d.locationId}|${day}`) ?? new Decimal(1);
    out.set(`${d.locationId}|${day}`, {
      locationId: d.locationId,
      businessDay: day,
      fittedAt: new Date(d.fittedAt),
      total: new Decimal(d.total).times(factor),
      hours: d.hours.map((h) => new Decimal(h).times(factor)),
      start: new Date(d.start),
      adjustmentPercent: factor.minus(1).times(100),
    });
  }
  return out;
}

/** The forecast of net sales and of transactions at these locations over `from`..`to`: a sum only when every location has one for every day (else null: nothing is guessed). */
export async function forecastTotals(w: Work, locationIds: string[], from: string, to: string, dayCount: number): Promise<{ netSales: Decimal | null; transactions: Decimal | null }> {
  const total = async (driver: string) => {
    const days = await forecastDays(w, driver, locationIds, from, to);
    if (locationIds.length === 0 || days.size < locationIds.length * dayCount) return null;
    return [...days.values()].reduce((s, d) => s.plus(d.total), new Decimal(0));
  };
  return { netSales: await total(NET_SALES), transactions: await total(TRANSACTIONS) };
}
