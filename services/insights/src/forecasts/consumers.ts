import { defineConsumer, type ConsumerDef } from '@bop/shared';
import { applyAdjustment, applyFit, type FittedForecast, type ForecastAdjustmentChange } from './store';
import { markAlertsDirty } from '../alerts/evaluation-store';
import { KPIS_MOVED_BY } from '../alerts/windows';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const AMOUNT = /^-?\d{1,15}(\.\d{1,6})?$/;
const isInstant = (v: unknown) => typeof v === 'string' && Number.isFinite(Date.parse(v));
const isRef = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= 64;

/**
 * What insights reads of scheduling's internal `scheduling.forecast.fitted` (data.object: `locationId`,
 * `driver`, `fittedAt`, `days[]` of `date`, `start`, `total`, `hours[]`), or why it is not a fit.
 */
export function fittedForecast(object: unknown): FittedForecast | string {
  const o = object as Record<string, unknown> | null;
  if (!isRef(o?.locationId) || !isRef(o!.driver) || !isInstant(o!.fittedAt) || !Array.isArray(o!.days)) return 'locationId, driver, fittedAt and days[] are required';
  const days = o!.days as unknown[];
  for (let i = 0; i < days.length; i++) {
    const d = days[i] as Record<string, unknown> | null;
    if (typeof d?.date !== 'string' || !DAY.test(d.date) || !isInstant(d.start)) return `days.${i}: date and start are required`;
    if (typeof d.total !== 'string' || !AMOUNT.test(d.total)) return `days.${i}.total`;
    if (!Array.isArray(d.hours) || d.hours.length > 25 || d.hours.some((h) => typeof h !== 'string' || !AMOUNT.test(h))) return `days.${i}.hours`;
  }
  return o as unknown as FittedForecast;
}

/** What insights reads of `forecast.updated` (data.object: an adjustment with `locationId`, `driver`, `date`, `percent`, `version`, `updatedAt`), or why it is not one. */
export function forecastAdjustment(object: unknown): ForecastAdjustmentChange | string {
  const o = object as Record<string, unknown> | null;
  if (!isRef(o?.locationId) || typeof o!.date !== 'string' || !DAY.test(o!.date)) return 'locationId and date are required';
  if (o!.driver != null && !isRef(o!.driver)) return 'driver';
  if (typeof o!.percent !== 'number' || !Number.isFinite(o!.percent) || o!.percent < -100) return 'percent';
  if (!Number.isInteger(o!.version) || !isInstant(o!.updatedAt)) return 'version and updatedAt are required';
  return { locationId: o!.locationId as string, driver: (o!.driver as string | null | undefined) ?? null, date: o!.date as string, percent: o!.percent as number, version: o!.version as number, updatedAt: o!.updatedAt as string };
}

/** Consumer of scheduling's fits and adjustments: each day's forecast as it stood before the day started. */
export const forecastConsumer = defineConsumer({
  name: 'forecast-read-model',
  topics: ['scheduling'],
  types: ['scheduling.forecast.fitted', 'forecast.updated'],
  async handle(ctx) {
    const { event } = ctx;
    if (event.type === 'scheduling.forecast.fitted') {
      const parsed = fittedForecast(event.data.object);
      if (typeof parsed === 'string') throw new Error(`${event.type} ${event.id}: data.object is not a fitted forecast (${parsed})`);
      if ((await applyFit(ctx, parsed)).length > 0) await markAlertsDirty(ctx, [parsed.locationId], KPIS_MOVED_BY.forecast);
      return;
    }
    const parsed = forecastAdjustment(event.data.object);
    if (typeof parsed === 'string') throw new Error(`${event.type} ${event.id}: data.object is not a forecast adjustment (${parsed})`);
    if (await applyAdjustment(ctx, parsed)) await markAlertsDirty(ctx, [parsed.locationId], KPIS_MOVED_BY.forecast);
  },
});

export const forecastConsumers: ConsumerDef[] = [forecastConsumer];
