import { defineWorker, type ServiceRuntime } from '@bop/shared';
import type { SchedulingConfig } from '../config';
import { dueForecastFits, refitForecast } from './fit-store';

/**
 * Fits forecasts in the background (docs/scheduling.md: stored forecasts): each location and driver
 * whose data or special days changed, once its changes have been quiet for a moment (a backfill's
 * burst of batches is one fit) or have waited the longest allowed, and each one again on a new local day.
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
        await r.write((w) => refitForecast(w, series));
      }
      // fitted some: changes may have come meanwhile; else wake when the next quiet spell ends
      if (due.length > 0) return true;
      return nextInMs === null ? undefined : Math.min(nextInMs, svc.config.SCHEDULING_FORECAST_FIT_POLL_MS);
    },
  });
