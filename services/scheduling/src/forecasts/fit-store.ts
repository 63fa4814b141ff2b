import { DateTime } from 'luxon';
import { LockMode } from '@mikro-orm/core';
import { findPlain, resolveLocations, type Work } from '@bop/shared';
import { ForecastFit } from './entities';
import { fitDueIn, fittedEventObject, horizonEnd, storedCoverage, storedForecast, type FitTiming, type StoredForecast } from './fitted';
import { forecastDemand, ForecastInputError, InsufficientHistory } from './model';
import { forecastInputs } from './store';

/** How a forecast answer was fitted (the `GET /forecasts` fields of docs/scheduling.md). */
export interface FitView {
  fittedAt: string;
  fit: 'stored' | 'on_demand';
  stale: boolean;
  staleSince: string | null;
}

/**
 * Marks stored forecasts out of date, so the fit worker fits them again: one location and driver
 * (a row is made for a series seen the first time), every driver of a location, or all of them.
 * `edit`: an explicit edit (a special day) that reads must show at once, so a stored fit made
 * before it is not served until the worker has fitted again.
 */
export async function markForecastsStale(w: Work, target: { locationId?: string; driver?: string; edit?: boolean }): Promise<void> {
  const { em } = w;
  const now = w.now;
  if (target.locationId && target.driver) await ensureSeries(w, { locationId: target.locationId, driver: target.driver }, 0);
  const where = { ...(target.locationId ? { locationId: target.locationId } : {}), ...(target.driver ? { driver: target.driver } : {}) };
  const rows = await em.find(ForecastFit, where, { fields: ['locationId', 'driver', 'generation', 'editGeneration', 'staleSince', 'changedAt'], lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { locationId: 'asc', driver: 'asc' } });
  for (const row of rows) {
    row.generation += 1;
    row.changedAt = now;
    row.staleSince ??= now;
    if (target.edit) row.editGeneration = row.generation;
  }
  await em.flush();
}

/** The row of a series seen the first time (at `generation`: 1 is a fit due); a concurrent write making it too is no conflict. */
async function ensureSeries(w: Work, s: { locationId: string; driver: string }, generation: number): Promise<void> {
  await w.em
    .createQueryBuilder(ForecastFit)
    .insert({ ...s, generation, fittedGeneration: 0, editGeneration: 0, changedAt: w.now, staleSince: generation > 0 ? w.now : null })
    .onConflict(['locationId', 'driver'])
    .ignore()
    .execute();
}

/**
 * Marks the series of the intervals a write stored, each location and driver once (in order, so
 * concurrent writes lock rows alike). An interval of the location's current day or later changes
 * no fit (the model trains through yesterday), so sales streaming in ask for none (only a series
 * seen the first time is fitted): the day's fit when it ends takes them in.
 */
export async function markSeriesStale(w: Work, intervals: Iterable<{ locationId: string; driver: string; intervalStart: Date | string }>): Promise<void> {
  const list = [...intervals];
  if (list.length === 0) return;
  const zones = (await resolveLocations(w, [...new Set(list.map((i) => i.locationId))].map((locationId) => ({ locationId })))).byId;
  const todayStarts = new Map<string, number>();
  const series = new Map<string, { locationId: string; driver: string; past: boolean }>();
  for (const i of list) {
    let today = todayStarts.get(i.locationId);
    if (today === undefined) {
      const zone = zones.get(i.locationId)?.timezone;
      today = zone ? DateTime.fromJSDate(w.now, { zone }).startOf('day').toMillis() : Infinity;
      todayStarts.set(i.locationId, today);
    }
    const key = `${i.locationId}\u0000${i.driver}`;
    const past = new Date(i.intervalStart).getTime() < today || (series.get(key)?.past ?? false);
    series.set(key, { locationId: i.locationId, driver: i.driver, past });
  }
  for (const key of [...series.keys()].sort()) {
    const { past, ...s } = series.get(key)!;
    if (past) await markForecastsStale(w, s);
    else await ensureSeries(w, s, 1);
  }
}

/** The stored fit that answers `GET /forecasts` for these days, when one does (else the request is fitted on demand). */
export async function servableFit(w: Work, q: { locationId: string; driver: string; from: string; to: string }, zone: string): Promise<{ result: StoredForecast; fit: FitView } | null> {
  // a plain row: no entity snapshot of the stored days to compare at flush
  const [row] = await findPlain(w.em, ForecastFit, { locationId: q.locationId, driver: q.driver });
  if (!row?.result || !row.fittedAt) return null;
  // an edit the fit has not seen: fitted now instead, so the edit shows
  if (row.editGeneration > row.fittedGeneration) return null;
  if (row.result.timezone !== zone) return null;
  const coverage = storedCoverage(row.result, q, DateTime.fromJSDate(w.now, { zone }).toISODate()!);
  if (!coverage) return null;
  const stale = coverage === 'behind' || row.generation > row.fittedGeneration;
  return {
    result: row.result,
    fit: { fittedAt: new Date(row.fittedAt).toISOString(), fit: 'stored', stale, staleSince: stale && row.staleSince ? new Date(row.staleSince).toISOString() : null },
  };
}

/** The fits due now (oldest change first), and the ms until the next one is when none is. */
export async function dueForecastFits(w: Work, timing: FitTiming): Promise<{ due: { locationId: string; driver: string }[]; nextInMs: number | null }> {
  const rows = await w.em.find(ForecastFit, {}, { fields: ['locationId', 'driver', 'generation', 'fittedGeneration', 'staleSince', 'changedAt', 'fittedAt', 'retryAt'], orderBy: { changedAt: 'asc' } });
  if (rows.length === 0) return { due: [], nextInMs: null };
  const zones = (await resolveLocations(w, rows.map((r) => ({ locationId: r.locationId })))).byId;
  const due: { locationId: string; driver: string }[] = [];
  let nextInMs: number | null = null;
  for (const r of rows) {
    const zone = zones.get(r.locationId)?.timezone;
    if (!zone) continue;
    const today = DateTime.fromJSDate(w.now, { zone }).toISODate()!;
    const fittedOn = r.fittedAt ? DateTime.fromJSDate(new Date(r.fittedAt), { zone }).toISODate() : null;
    const state = { generation: r.generation, fittedGeneration: r.fittedGeneration, changedAt: new Date(r.changedAt), staleSince: r.staleSince ? new Date(r.staleSince) : null, fittedOn };
    const dueIn = fitDueIn(state, w.now, today, timing);
    // a series whose fit failed waits out its backoff (the others are fitted meanwhile)
    const inMs = dueIn === null || !r.retryAt ? dueIn : Math.max(dueIn, new Date(r.retryAt).getTime() - w.now.getTime());
    if (inMs === 0) due.push({ locationId: r.locationId, driver: r.driver });
    else if (inMs !== null) nextInMs = nextInMs === null ? inMs : Math.min(nextInMs, inMs);
  }
  return { due, nextInMs };
}

/**
 * Fits one location and driver as `GET /forecasts` would for the days from today through the horizon
 * (without adjustments: they apply when read) and stores it, announcing it to insights (the internal
 * `scheduling.forecast.fitted`, hour sums per day). The generation is read first: a change
 * committed while the fit runs leaves the row stale, so the worker fits again.
 */
export async function refitForecast(w: Work, series: { locationId: string; driver: string }): Promise<'fitted' | 'too_little_history' | 'gone'> {
  const { em } = w;
  const key = { locationId: series.locationId, driver: series.driver };
  const row = await em.findOne(ForecastFit, key, { fields: ['generation'] });
  const zone = (await resolveLocations(w, [{ locationId: series.locationId }])).byId.get(series.locationId)?.timezone;
  if (!row || !zone) return 'gone';
  const from = DateTime.fromJSDate(w.now, { zone }).toISODate()!;
  const to = horizonEnd(from);
  const inputs = await forecastInputs(w, { ...series, from }, zone);
  let result: StoredForecast | null = null;
  try {
    const fitted = forecastDemand({ ...inputs.model, to });
    result = storedForecast(fitted, { timezone: zone, historySource: inputs.history.source, from, to });
  } catch (err) {
    if (!(err instanceof InsufficientHistory || err instanceof ForecastInputError)) throw err;
  }
  await em.nativeUpdate(ForecastFit, key, { result, trainedThrough: result?.trainedThrough ?? null, fittedGeneration: row.generation, fittedAt: w.now, failures: 0, failedAt: null, retryAt: null });
  await em.nativeUpdate(ForecastFit, { ...key, generation: row.generation }, { staleSince: null });
  // insights keeps its read model of forecasts from this (docs/scheduling.md: stored forecasts)
  if (result) w.emit({ type: 'scheduling.forecast.fitted', aggregateType: 'forecast', aggregateId: series.locationId, locationId: series.locationId, object: fittedEventObject(series, result, w.now) });
  return result ? 'fitted' : 'too_little_history';
}

/**
 * Records a fit that failed with an unexpected error: one more consecutive failure, and the series is
 * not due again before `retryAt` (its stored fit, if any, is kept). Answers the failures so far.
 */
export async function recordFitFailure(w: Work, series: { locationId: string; driver: string }, delayMs: (failures: number) => number): Promise<{ failures: number; retryAt: Date } | null> {
  const row = await w.em.findOne(ForecastFit, { locationId: series.locationId, driver: series.driver }, { fields: ['failures'], lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!row) return null;
  const failures = row.failures + 1;
  const retryAt = new Date(w.now.getTime() + delayMs(failures));
  await w.em.nativeUpdate(ForecastFit, { locationId: series.locationId, driver: series.driver }, { failures, failedAt: w.now, retryAt });
  return { failures, retryAt };
}
