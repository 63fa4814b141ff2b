import { backoffDelay, defineWorker, type BackoffPolicy, type ServiceRuntime } from '@bop/shared';
import type { SchedulingConfig } from '../config';
import { dueForecastFits, recordFitFailure, refitForecast } from './fit-store';

/** Retry delays of one series whose fit fails with an unexpected error (recorded on its row). */
export const seriesFitBackoff: BackoffPolicy = { baseMs: 5_000, capMs: 30 * 60_000 };

/**
 * Fits forecasts in the background (docs/scheduling.md: stored forecasts): each location and driver
 * whose data or special days changed, once its changes have been quiet for a moment (a backfill's
 * burst of batches is one fit) or have waited the longest allowed, and each one again on a new local day.
 * A series whose fit throws is logged, retried later with backoff, and does not hold up the others;
 * a database outage fails the round instead (the kit's backoff).
 */
export const forecastFitWorker = (svc: ServiceRuntime<SchedulingConfig>) =>
  defineWorker({
    name: 'forecast-fit',
    every: () => svc.config.SCHEDULING_FORECAST_FIT_POLL_MS,
    backoff: { baseMs: 1_000, capMs: 60_000 },
    failureMessage: 'scheduling: fitting forecasts failed',
    round: async (r) => {
      const timing = { quietMs: svc.config.SCHEDULING_FORECAST_FIT_QUIET_MS, maxWaitMs: svc.config.SCHEDULING_FORECAST_FIT_MAX_WAIT_MS };
      const { due, nextInMs } = await r.read((w) => dueForecastFits(w, timing));
      for (const series of due) {
        if (r.stopping) return true;
        try {
          await r.write((w) => refitForecast(w, series));
        } catch (err) {
          // with the database out this write fails too: the round fails (the kit's backoff)
          const failed = await r.write((w) => recordFitFailure(w, series, (n) => backoffDelay(n, seriesFitBackoff)));
          svc.log.warn(
            { err: (err as Error).message, locationId: series.locationId, driver: series.driver, failures: failed?.failures, retryAt: failed?.retryAt.toISOString() },
            'scheduling: fitting a forecast failed; retrying it later',
          );
        }
      }
      // fitted some: changes may have come meanwhile; else wake when the next quiet spell ends
      if (due.length > 0) return true;
      return nextInMs === null ? undefined : Math.min(nextInMs, svc.config.SCHEDULING_FORECAST_FIT_POLL_MS);
    },
  });
