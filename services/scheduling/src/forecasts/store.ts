import { DateTime } from 'luxon';
import { LockMode } from '@mikro-orm/core';
import {
  assertLocationInReach,
  changedFields,
  findPlain,
  newId,
  reachableLocationIds,
  resolveLocations,
  ValidationError,
  type EntityManager,
  type ReachSet,
  type Work,
} from '@bop/shared';
import { bucketForecast, forecastDemand, ForecastInputError, InsufficientHistory, type DemandPoint, type ForecastBucketSize, type ForecastInput, type ForecastResult } from './model';
import { needsPeers, similarPeers } from './cold-start';
import { storedDays } from './fitted';
import { markForecastsStale, servableFit, type FitView } from './fit-store';
import { ForecastAdjustment, SpecialDay } from './entities';
import { DemandDriver, SalesInterval } from '../demand/entities';

/** History read before the forecast's first day: two years and a week (the model's yearly season looks 364 and 728 days back). */
const HISTORY_DAYS = 735;
/** Drivers a location that sends its sales gets without a feed. */
const FROM_SALES: Record<string, 'netSales' | 'transactions'> = { net_sales: 'netSales', transactions: 'transactions' };
/** their columns (read unmapped) */
const SALES_COLUMN = { netSales: 'net_sales', transactions: 'transactions' } as const;

/** A history row as read, unmapped (column names): a timestamptz (a Date from the driver), a numeric (a string) or an integer. */
interface HistoryRow {
  interval_start: Date | string;
  value?: string;
  net_sales?: string;
  transactions?: number;
}

/**
 * A driver's history at a location: what feeds sent (summed over sources per interval) when there
 * is any in the window, else, for net sales and transactions, what sales' transactions built.
 * Only the interval and its value are read, unmapped (100 weeks of 15-minute history are ~67,000 rows:
 * whole rows through findPlain cost 851 ms CPU, the two columns mapped to entity values 265 ms, unmapped 104 ms).
 */
async function demandHistory(em: EntityManager, locationId: string, driver: string, from: Date, to: Date): Promise<{ points: DemandPoint[]; source: 'feed' | 'sales' }> {
  const fed = await em
    .createQueryBuilder(DemandDriver)
    .select(['intervalStart', 'value'])
    .where({ locationId, driver, intervalStart: { $gte: from, $lt: to } })
    .execute<HistoryRow[]>('all', false);
  if (fed.length > 0 || !FROM_SALES[driver]) {
    const sums = new Map<number, number>();
    for (const r of fed) {
      const at = new Date(r.interval_start).getTime();
      sums.set(at, (sums.get(at) ?? 0) + Number(r.value));
    }
    return { points: [...sums].sort((a, b) => a[0] - b[0]).map(([at, value]) => ({ start: new Date(at).toISOString(), value })), source: 'feed' };
  }
  const field = FROM_SALES[driver];
  const built = await em
    .createQueryBuilder(SalesInterval)
    .select(['intervalStart', field])
    .where({ locationId, intervalStart: { $gte: from, $lt: to } })
    .orderBy({ intervalStart: 'asc' })
    .execute<HistoryRow[]>('all', false);
  return { points: built.map((r) => ({ start: new Date(r.interval_start).toISOString(), value: Math.max(0, Number(r[SALES_COLUMN[field]])) })), source: 'sales' };
}

export interface ForecastRequest {
  locationId: string;
  driver: string;
  from: string;
  to: string;
  bucket: ForecastBucketSize;
}

/**
 * What the model reads for a forecast of local days from `from` on: the driver's history before it (and
 * before today), every location's special days (the model keeps the company's and this location's, and a
 * similar location's own for its history), and with fewer than 8 weeks of its own, the histories of the
 * company's most similar locations (cold-start.ts). `model` lacks `to` and the adjustments.
 */
export async function forecastInputs(w: Work, q: { locationId: string; driver: string; from: string }, zone: string) {
  const { em } = w;
  const first = DateTime.fromISO(q.from, { zone }).startOf('day');
  const historyEnd = new Date(Math.min(first.toMillis(), w.now.getTime()));
  const history = await demandHistory(em, q.locationId, q.driver, first.minus({ days: HISTORY_DAYS }).toJSDate(), historyEnd);
  const specialDays = await findPlain(em, SpecialDay, {});
  const model: Omit<ForecastInput, 'to'> & { to: string } = {
    locationId: q.locationId,
    history: history.points,
    zone,
    from: q.from,
    to: q.from,
    asOf: w.now.toISOString(),
    // a plain row's decimal is a string ("20.00")
    specialDays: specialDays.map((d) => ({ date: d.date, kind: d.kind, name: d.name ?? undefined, expectedPercent: d.expectedPercent == null ? undefined : Number(d.expectedPercent), ...(d.locationId ? { locationId: d.locationId } : {}) })),
  };
  if (needsPeers(model)) model.peers = await similarPeers(w, model, async (id, from, to) => (await demandHistory(em, id, q.driver, from, to)).points);
  return { history, model };
}

/** 422 for a history the model cannot forecast from (none at all), or input it refuses. */
export function forecastRefusal(err: unknown, q: { locationId: string; driver: string; from: string }): unknown {
  if (err instanceof InsufficientHistory) {
    return new ValidationError(
      [
        {
          path: 'locationId',
          message: `${q.locationId} has no ${q.driver} before ${q.from}: a forecast needs at least one day of it. Send the location's sales (or its ${q.driver} with POST /demand-drivers); a forecast is made from the first day, and is at its best from 8 weeks (ingestion rule 10).`,
        },
      ],
      'No history to forecast from.',
    );
  }
  if (err instanceof ForecastInputError) return new ValidationError([{ path: 'from', message: err.message }]);
  return err;
}

/**
 * `GET /forecasts`: the driver forecast for local days [from, to] in the asked buckets (422 only without
 * any history; under 8 weeks a cold start, see cold-start.ts). Served from the stored fit when it covers the days (marked stale when
 * newer data arrived since, see docs/scheduling.md), else fitted now; adjustments apply as they are.
 */
export async function forecastFor(w: Work, q: ForecastRequest, reach: ReachSet) {
  const { em } = w;
  assertLocationInReach(reach, q.locationId);
  const loc = (await resolveLocations(w, [{ locationId: q.locationId }])).byId.get(q.locationId);
  if (!loc) throw new ValidationError([{ path: 'locationId', message: `No location ${q.locationId}.` }]);
  const zone = loc.timezone;
  const adjustments = (await findPlain(em, ForecastAdjustment, { locationId: q.locationId, $or: [{ driver: q.driver }, { driver: null }], date: { $gte: q.from, $lte: q.to } }))
    .filter((a) => Number(a.percent) !== 0)
    .map((a) => ({ date: a.date, percent: Number(a.percent) }));
  const stored = await servableFit(w, q, zone);
  if (stored) return forecastView(q, zone, stored.result.historySource, { ...stored.result, ...storedDays(stored.result, q.from, q.to, adjustments) }, stored.fit);
  const inputs = await forecastInputs(w, q, zone);
  let result;
  try {
    result = forecastDemand({ ...inputs.model, to: q.to, adjustments });
  } catch (err) {
    throw forecastRefusal(err, q);
  }
  return forecastView(q, zone, inputs.history.source, result, { fittedAt: w.now.toISOString(), fit: 'on_demand', stale: false, staleSince: null });
}

function forecastView(
  q: ForecastRequest,
  zone: string,
  historySource: 'feed' | 'sales',
  result: Pick<ForecastResult, 'points' | 'days' | 'method' | 'confidence' | 'similarLocations' | 'weeksOfHistory' | 'daysOfHistory' | 'trainedThrough' | 'trendPercentPerWeek'>,
  fit: FitView,
) {
  const round = (v: number) => (Math.round(v * 100) / 100).toFixed(2);
  return {
    locationId: q.locationId,
    driver: q.driver,
    timezone: zone,
    bucket: q.bucket,
    from: q.from,
    to: q.to,
    method: result.method,
    confidence: result.confidence,
    similarLocations: result.similarLocations?.map((p) => ({ locationId: p.locationId, weight: Math.round(p.weight * 1000) / 1000, scale: Math.round(p.scale * 1000) / 1000 })) ?? null,
    historySource,
    weeksOfHistory: result.weeksOfHistory,
    daysOfHistory: result.daysOfHistory,
    trainedThrough: result.trainedThrough,
    trendPercentPerWeek: Math.round(result.trendPercentPerWeek * 100) / 100,
    ...fit,
    buckets: bucketForecast(result.points, q.bucket, zone).map((b) => ({ start: b.start, end: b.end, value: round(b.value) })),
    days: result.days.map((d) => ({
      date: d.date,
      total: round(d.total),
      baseline: round(d.baseline),
      special: d.special ? { kind: d.special.kind, name: d.special.name ?? null, percent: Math.round(d.special.percent * 100) / 100, source: d.special.source } : null,
      adjustmentPercent: d.adjustmentPercent,
    })),
  };
}

const iso = (d: Date) => new Date(d).toISOString();
const adjustmentDto = (a: ForecastAdjustment) => ({
  id: a.id,
  locationId: a.locationId,
  driver: a.driver ?? null,
  date: a.date,
  percent: Number(a.percent),
  reason: a.reason ?? null,
  version: a.version,
  createdAt: iso(a.createdAt),
  updatedAt: iso(a.updatedAt),
});

/** `POST /forecasts/adjustments`: sets the day's percentage (replacing an earlier one of the same day and driver); `forecast.updated`. */
export async function adjustForecast(w: Work, body: { locationId: string; driver?: string | null; date: string; percent: number; reason?: string | null }) {
  const { em } = w;
  assertLocationInReach(w.reach(), body.locationId);
  if (!(await resolveLocations(w, [{ locationId: body.locationId }])).byId.has(body.locationId)) throw new ValidationError([{ path: 'locationId', message: `No location ${body.locationId}.` }]);
  const driver = body.driver ?? null;
  const at = w.now;
  let a = await em.findOne(ForecastAdjustment, { locationId: body.locationId, driver, date: body.date }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (a) {
    Object.assign(a, { percent: body.percent, reason: body.reason ?? null, version: a.version + 1, updatedAt: at });
  } else {
    a = em.create(ForecastAdjustment, { id: newId('forecastAdjustment'), locationId: body.locationId, driver, date: body.date, percent: body.percent, reason: body.reason ?? null, version: 1, createdAt: at, updatedAt: at });
  }
  await em.flush();
  const view = adjustmentDto(a);
  w.emit({ type: 'forecast.updated', aggregateType: 'forecast', aggregateId: body.locationId, locationId: body.locationId, object: { ...view, reason: view.reason } });
  return view;
}

const specialDto = (d: SpecialDay) => ({
  date: d.date,
  locationId: d.locationId ?? null,
  kind: d.kind,
  name: d.name ?? null,
  expectedPercent: d.expectedPercent == null ? null : Number(d.expectedPercent),
  version: d.version,
  updatedAt: iso(d.updatedAt),
});

/**
 * `GET /special-days`: the company's and those of the locations in reach; with `locationId`, the
 * ones that hold there (the company's and its own), by date, the company's first.
 */
export async function listSpecialDays(w: Work, f: { from?: string; to?: string; locationId?: string }) {
  const reach = w.reach();
  let scope: object;
  if (f.locationId) {
    assertLocationInReach(reach, f.locationId);
    scope = { $or: [{ locationId: null }, { locationId: f.locationId }] };
  } else {
    const ids = reachableLocationIds(reach);
    scope = ids === null ? {} : { $or: [{ locationId: null }, { locationId: { $in: ids } }] };
  }
  const dates = f.from || f.to ? { date: { ...(f.from ? { $gte: f.from } : {}), ...(f.to ? { $lte: f.to } : {}) } } : {};
  const rows = await findPlain(w.em, SpecialDay, { ...scope, ...dates }, { orderBy: { date: 'asc', locationId: 'asc nulls first' } });
  return { data: rows.map(specialDto) };
}

export interface SpecialDayBody {
  kind: 'closed' | 'lift' | 'dip';
  name?: string | null;
  expectedPercent?: number | null;
}

/**
 * `PUT /special-days/{date}`: sets the company's special day, or with `locationId` one location's
 * (which overrides the company's there on that date); 201 when new. Company days need reach
 * Everyone (routes.ts), a location's needs the location in reach.
 */
export async function putSpecialDay(w: Work, date: string, body: SpecialDayBody, locationId?: string) {
  if (body.kind === 'lift' && body.expectedPercent != null && body.expectedPercent < 0) throw new ValidationError([{ path: 'expectedPercent', message: 'A lift expects more: use a positive percent, or kind dip.' }]);
  if (body.kind === 'dip' && body.expectedPercent != null && body.expectedPercent > 0) throw new ValidationError([{ path: 'expectedPercent', message: 'A dip expects less: use a negative percent, or kind lift.' }]);
  if (body.kind === 'closed' && body.expectedPercent != null) throw new ValidationError([{ path: 'expectedPercent', message: 'A closed day expects nothing; leave expectedPercent out.' }]);
  const { em } = w;
  if (locationId) {
    assertLocationInReach(w.reach(), locationId);
    if (!(await resolveLocations(w, [{ locationId }])).byId.has(locationId)) throw new ValidationError([{ path: 'locationId', message: `No location ${locationId}.` }]);
  }
  const at = w.now;
  const fields = { kind: body.kind, name: body.name ?? null, expectedPercent: body.expectedPercent ?? null };
  const d = await em.findOne(SpecialDay, { date, locationId: locationId ?? null }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (d) {
    if (d.kind !== fields.kind || (d.name ?? null) !== fields.name || (d.expectedPercent == null ? null : Number(d.expectedPercent)) !== fields.expectedPercent) {
      const before = specialDto(d);
      Object.assign(d, fields, { version: d.version + 1, updatedAt: at });
      await markForecastsStale(w, { ...(locationId ? { locationId } : {}), edit: true });
      await em.flush();
      const after = specialDto(d);
      w.emit(specialDayEvent('special_day.updated', after, changedFields(before, after)));
      return { status: 200 as const, body: after };
    }
    return { status: 200 as const, body: specialDto(d) };
  }
  const created = em.create(SpecialDay, { date, locationId: locationId ?? null, ...fields, version: 1, updatedAt: at });
  await em.flush();
  await markForecastsStale(w, { ...(locationId ? { locationId } : {}), edit: true });
  const object = specialDto(created);
  w.emit(specialDayEvent('special_day.created', object));
  return { status: 201 as const, body: object };
}

/**
 * A special day's public change event (the project's own types): data.object the day as the API returns
 * it (on `special_day.deleted`, as it was), at its location (null: the company's).
 */
function specialDayEvent(type: 'special_day.created' | 'special_day.updated' | 'special_day.deleted', object: ReturnType<typeof specialDto>, previous?: Record<string, unknown>) {
  return { type, aggregateType: 'special_day', aggregateId: `${object.locationId ?? 'company'}:${object.date}`, locationId: object.locationId, object, ...(previous ? { previous } : {}) };
}

/** `DELETE /special-days/{date}`: removes the company's entry, or with `locationId` the location's (the company's then holds there again). */
export async function removeSpecialDay(w: Work, date: string, locationId?: string): Promise<void> {
  if (locationId) assertLocationInReach(w.reach(), locationId);
  const d = await w.em.findOne(SpecialDay, { date, locationId: locationId ?? null });
  if (!d) return;
  const object = specialDto(d);
  w.em.remove(d);
  await w.em.flush();
  await markForecastsStale(w, { ...(locationId ? { locationId } : {}), edit: true });
  w.emit(specialDayEvent('special_day.deleted', object));
}
