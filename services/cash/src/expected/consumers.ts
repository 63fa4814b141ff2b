import { defineConsumer, type ConsumerDef, type Work } from '@bop/shared';
import type { DayRef } from '../days/lock';
import { applyRecordedTenders } from './store';

/**
 * What cash reads of sales' internal `sales.transactions.recorded` (data.object: `locationId`,
 * `transactions[]` with `id`, `version`, `businessDay`, `status`, `registerId?`, `tenders[]` of `type`,
 * `amount`, `change?`, `platform?`); other fields are ignored. Sales sends every sale, at up to
 * 10,000 a second, and every service of the embedded runtime shares one event loop: the shape is
 * checked by hand and the tenders are stored as they came, so a sale costs cash one plain row (and its
 * share of its day's running expected amounts).
 */
export interface RecordedTransaction {
  id: string;
  version: number;
  locationId: string;
  businessDay: string;
  status: 'completed' | 'voided';
  registerId?: string | null;
  tenders: Array<{ type: string; amount: string; change?: string | null; platform?: string | null }>;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MONEY = /^-?\d{1,15}(\.\d{1,6})?$/;

/** The transactions of one event, or the reason it is not a batch of recorded transactions. */
export function recordedTransactions(object: unknown): RecordedTransaction[] | string {
  const o = object as { locationId?: unknown; transactions?: unknown };
  if (typeof o?.locationId !== 'string' || !Array.isArray(o.transactions)) return 'locationId and transactions[] are required';
  const out: RecordedTransaction[] = [];
  for (let i = 0; i < o.transactions.length; i++) {
    const t = o.transactions[i] as Record<string, unknown>;
    if (typeof t?.id !== 'string' || !Number.isInteger(t.version) || typeof t.businessDay !== 'string' || !DAY.test(t.businessDay)) return `transactions.${i}: id, version and businessDay are required`;
    if (t.status !== 'completed' && t.status !== 'voided') return `transactions.${i}.status`;
    if (t.registerId !== undefined && t.registerId !== null && typeof t.registerId !== 'string') return `transactions.${i}.registerId`;
    if (!Array.isArray(t.tenders)) return `transactions.${i}.tenders`;
    for (let j = 0; j < t.tenders.length; j++) {
      const d = t.tenders[j] as Record<string, unknown>;
      if (typeof d?.type !== 'string' || typeof d.amount !== 'string' || !MONEY.test(d.amount) || (d.change != null && (typeof d.change !== 'string' || !MONEY.test(d.change)))) {
        return `transactions.${i}.tenders.${j}`;
      }
    }
    out.push({ id: t.id, version: t.version as number, locationId: o.locationId, businessDay: t.businessDay, status: t.status, registerId: (t.registerId as string | null | undefined) ?? null, tenders: t.tenders as RecordedTransaction['tenders'] });
  }
  return out;
}

/**
 * Consumer of sales' `sales.transactions.recorded`: the expected tenders of each business day; then
 * `onChanged` (re-matching the payouts of the days that changed). A burst of sales is one write.
 */
export const expectedTendersConsumer = (onChanged: (w: Work, days: DayRef[]) => Promise<void>) => {
  const apply = async (w: Work, events: Array<{ id: string; type: string; data: { object: unknown } }>) => {
    const recorded: RecordedTransaction[] = [];
    for (const event of events) {
      const parsed = recordedTransactions(event.data.object);
      // a producer's bug: parked in dead_letters rather than dropped or guessed
      if (typeof parsed === 'string') throw new Error(`${event.type} ${event.id}: data.object is not a batch of recorded transactions (${parsed})`);
      for (const t of parsed) recorded.push(t);
    }
    const days = await applyRecordedTenders(w, recorded);
    if (days.length > 0) await onChanged(w, days);
  };
  return defineConsumer({
    name: 'expected-tenders',
    topics: ['sales'],
    types: ['sales.transactions.recorded'],
    async handle(ctx) {
      await apply(ctx, [ctx.event]);
    },
    // under load a second of sales gathers into one write (the expected amounts still follow within seconds)
    settleMs: 1000,
    async handleBatch(ctx) {
      await apply(ctx, ctx.events.map((e) => e.event));
    },
  });
};

export const expectedConsumers = (onChanged: (w: Work, days: DayRef[]) => Promise<void>): ConsumerDef[] => [expectedTendersConsumer(onChanged)];
