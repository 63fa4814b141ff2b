import { lockForTransaction, type Work } from '@bop/shared';
import { SalesChannelDay, SalesContribution, SalesDay, SalesInterval, SalesItemDay } from '../sales/entities';
import { FlowDay, StockFlow, StockItem, StockOnHand } from '../stock/entities';
import { OpenOrder, PurchasePrice } from '../purchases/entities';
import { LaborDay, LaborHours, LaborInterval, LaborTimesheet } from '../labor/entities';
import { ScheduledShift, ShiftDay } from '../schedule/entities';
import { WasteRecord } from '../waste/entities';
import { OverShortDay } from '../cash/entities';
import { ForecastAdjustmentDay, ForecastDay } from '../forecasts/entities';
import { Rebuild } from './entities';

/** The read models' tables, by name (the replicas of organization and people are the kit's, kept by their own consumers). */
export const READ_MODELS = {
  sales_contributions: SalesContribution,
  sales_days: SalesDay,
  sales_intervals: SalesInterval,
  sales_item_days: SalesItemDay,
  sales_channel_days: SalesChannelDay,
  labor_timesheets: LaborTimesheet,
  labor_hours: LaborHours,
  labor_intervals: LaborInterval,
  scheduled_shifts: ScheduledShift,
  waste_records: WasteRecord,
  over_short_days: OverShortDay,
  stock_flows: StockFlow,
  stock_levels: StockOnHand,
  items: StockItem,
  purchase_prices: PurchasePrice,
  purchase_orders: OpenOrder,
  forecast_days: ForecastDay,
  forecast_adjustments: ForecastAdjustmentDay,
  // the day sums after their sources: clearing those leaves them at zero, then they are emptied
  labor_days: LaborDay,
  shift_days: ShiftDay,
  flow_days: FlowDay,
} as const;
export type ReadModel = keyof typeof READ_MODELS;

/** a rebuild older than this that never finished (its process died) no longer holds the alert rules */
export const REBUILD_HOLD_MS = 6 * 3_600_000;

/** The lock between the read models' consumers (shared) and a rebuild clearing them (exclusive). */
const readModelsLock = (w: Work) => `${w.schema}.read-models`;

/** Holds the read models for the unit's transaction (a consumer applying an event): a rebuild never clears them under it. */
export async function holdReadModels(w: Work): Promise<void> {
  await lockForTransaction(w.em, readModelsLock(w), { shared: true });
}

/** The rows each read model holds. */
export async function readModelRows(w: Work): Promise<Record<ReadModel, number>> {
  const out = {} as Record<ReadModel, number>;
  for (const [name, entity] of Object.entries(READ_MODELS)) out[name as ReadModel] = await w.em.count(entity as never, {});
  return out;
}

/**
 * Starts a rebuild: recorded as running (alert rules wait), the read models emptied once no consumer's
 * transaction holds them; refused while another runs. Answers the unit's instant.
 */
export async function startRebuild(w: Work, id: string): Promise<Date> {
  await lockForTransaction(w.em, readModelsLock(w));
  const running = await w.em.findOne(Rebuild, { status: 'running', startedAt: { $gt: new Date(w.now.getTime() - REBUILD_HOLD_MS) } });
  if (running) throw new Error(`insights rebuild: rebuild ${running.id} has been running since ${new Date(running.startedAt).toISOString()}; one runs at a time (one that died stops counting after ${REBUILD_HOLD_MS / 3_600_000} hours)`);
  // one that died before: the new one replaces it
  await w.em.nativeUpdate(Rebuild, { status: 'running' }, { status: 'abandoned', finishedAt: w.now });
  w.em.create(Rebuild, { id, startedAt: w.now, finishedAt: null, events: 0, status: 'running' });
  for (const entity of Object.values(READ_MODELS)) await w.em.nativeDelete(entity as never, {});
  await w.em.flush();
  return w.now;
}

/** A rebuild `done`, or `failed` (its read models partial until the next one). */
export async function finishRebuild(w: Work, id: string, events: number, status: 'done' | 'failed'): Promise<void> {
  const r = await w.em.findOneOrFail(Rebuild, { id });
  Object.assign(r, { finishedAt: w.now, events, status });
  await w.em.flush();
}

/** Whether a rebuild is running (started within REBUILD_HOLD_MS and not finished): alert rules wait for it. */
export async function rebuildRunning(w: Work): Promise<boolean> {
  return (await w.em.count(Rebuild, { status: 'running', startedAt: { $gt: new Date(w.now.getTime() - REBUILD_HOLD_MS) } })) > 0;
}
