import { RecordedSalesObject } from '@bop/contracts';
import { defineConsumer, type ConsumerDef, type ServiceRuntime } from '@bop/shared';
import type { InventoryConfig } from '../config';
import { applyRecordedSales } from './depletion-store';

/**
 * Depletion of sales: sales publishes every written transaction (ingested, re-mapped, accepted from
 * review) with its version on `sales.transactions.recorded`; duplicates and older deliveries change
 * nothing, newer ones post only the difference (updates, voids, lines mapped to an item later).
 */
export const depletionConsumer = (settleMs: number) =>
  defineConsumer({
    name: 'sales-depletion',
    topics: ['sales'],
    types: ['sales.transactions.recorded'],
    handle: (ctx) => applyRecordedSales(ctx, parseRecorded(ctx.event)).then(() => undefined),
    // a bus batch of events at once: one ledger write (and one stock.level_changed per item and location) for all of them;
    // under load, a second of sales gathers into one batch (stock still reflects a sale within seconds)
    settleMs,
    handleBatch: (ctx) => applyRecordedSales(ctx, ctx.events.map(({ event }) => parseRecorded(event))).then(() => undefined),
  });

/** The event's object, or an error that parks it (a producer's bug: parked in dead_letters rather than dropped). */
function parseRecorded(event: { id: string; type: string; data: { object: unknown } }): RecordedSalesObject {
  const parsed = RecordedSalesObject.safeParse(event.data.object);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => i.path.join('.') || '(object)').join(', ');
    throw new Error(`${event.type} ${event.id}: data.object is not a RecordedSalesObject (${fields})`);
  }
  return parsed.data;
}

/** Bus consumers of the recipes area. */
export const recipesConsumers = (svc: ServiceRuntime<InventoryConfig>): ConsumerDef[] => [depletionConsumer(svc.config.DEPLETION_SETTLE_MS)];
