import { defineConsumer, type ConsumerDef } from '@bop/shared';
import { applySalesDemand, type SalesContribution } from './sales-store';

const INTERVAL_MS = 900_000;
const MONEY = /^-?\d{1,15}(\.\d{1,6})?$/;

/**
 * What scheduling reads of sales' internal `sales.transactions.recorded` (data.object: `locationId`,
 * `transactions[]` with `id`, `version`, `occurredAt`, `status`, `type`, `subtotal`): net sales (the
 * subtotal, negative for a refund, 0 once voided) and a count of completed sales per 15-minute
 * interval, so a location that sends its sales needs no separate demand feed.
 */
export function salesContributions(object: unknown): SalesContribution[] | string {
  const o = object as { locationId?: unknown; transactions?: unknown };
  if (typeof o?.locationId !== 'string' || !Array.isArray(o.transactions)) return 'locationId and transactions[] are required';
  const out: SalesContribution[] = [];
  for (let i = 0; i < o.transactions.length; i++) {
    const t = o.transactions[i] as Record<string, unknown>;
    const at = typeof t?.occurredAt === 'string' ? Date.parse(t.occurredAt) : NaN;
    if (typeof t?.id !== 'string' || !Number.isInteger(t.version) || !Number.isFinite(at)) return `transactions.${i}: id, version and occurredAt are required`;
    if (typeof t.subtotal !== 'string' || !MONEY.test(t.subtotal)) return `transactions.${i}.subtotal`;
    const counted = t.status === 'completed';
    out.push({
      transactionId: t.id,
      version: t.version as number,
      locationId: o.locationId,
      intervalStart: new Date(Math.floor(at / INTERVAL_MS) * INTERVAL_MS),
      netSales: counted ? t.subtotal : '0',
      transactions: counted && t.type !== 'refund' ? 1 : 0,
    });
  }
  return out;
}

/** Consumer of sales' `sales.transactions.recorded`: a burst of sales is one write. */
export const salesDemandConsumer = defineConsumer({
  name: 'sales-demand',
  topics: ['sales'],
  types: ['sales.transactions.recorded'],
  settleMs: 250,
  async handle(ctx) {
    const { event } = ctx;
    const parsed = salesContributions(event.data.object);
    if (typeof parsed === 'string') throw new Error(`${event.type} ${event.id}: data.object is not a batch of recorded transactions (${parsed})`);
    await applySalesDemand(ctx, parsed);
  },
  async handleBatch(ctx) {
    const all: SalesContribution[] = [];
    for (const { event } of ctx.events) {
      const parsed = salesContributions(event.data.object);
      if (typeof parsed === 'string') throw new Error(`${event.type} ${event.id}: data.object is not a batch of recorded transactions (${parsed})`);
      all.push(...parsed);
    }
    await applySalesDemand(ctx, all);
  },
});

export const demandConsumers: ConsumerDef[] = [salesDemandConsumer];
