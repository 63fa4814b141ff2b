import { defineConsumer, sqlQuery, type ConsumerDef, type EntityManager } from '@bop/shared';
import { closedDays, dayKey, lateReview, touchDays, type DayRef } from '../days/lock';

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
 * Writes the newest version of each transaction (an older or equal version delivered again changes
 * nothing) with its tenders as sent (a voided transaction: none), and moves the day's running expected
 * amounts by the difference between the versions (cash net of change). A transaction of a closed day — as it is now or as it was —
 * is stored flagged for review: the day's locked figures stay as they were until it is reopened.
 * Answers the days whose expected amounts changed.
 */
export async function applyRecordedTenders(em: EntityManager, recorded: RecordedTransaction[], now: Date): Promise<DayRef[]> {
  const newest = new Map<string, RecordedTransaction>();
  for (const t of recorded) if ((newest.get(t.id)?.version ?? 0) < t.version) newest.set(t.id, t);
  if (newest.size === 0) return [];
  const list = [...newest.values()];
  // one writer of the running day amounts at a time: a version of a transaction cash has not stored yet
  // has no row to lock, and two writers would each add it without taking the other's off
  await sqlQuery(em, `select pg_advisory_xact_lock(hashtext('cash:expected_sales'))`);
  const stored = await sqlQuery<{ id: string; location_id: string; business_day: string; version: number; drawer_id: string | null; tenders: RecordedTransaction['tenders'] }>(
    em,
    `select "id", "location_id", to_char("business_day", 'YYYY-MM-DD') as "business_day", "version", "drawer_id", "tenders" from "cash"."sales_transactions"
     where "id" = any(array(select jsonb_array_elements_text(?::jsonb))) order by "id" for update`,
    [JSON.stringify(list.map((t) => t.id))],
  );
  const before = new Map(stored.map((s) => [s.id, s]));
  const fresh = list.filter((t) => (before.get(t.id)?.version ?? 0) < t.version);
  if (fresh.length === 0) return [];
  const days = new Map<string, DayRef>();
  for (const t of fresh) {
    const d = { locationId: t.locationId, businessDay: t.businessDay };
    days.set(dayKey(d), d);
    const b = before.get(t.id);
    if (b) days.set(dayKey({ locationId: b.location_id, businessDay: b.business_day }), { locationId: b.location_id, businessDay: b.business_day });
  }
  const touched = [...days.values()];
  await touchDays(em, touched, now);
  const closed = await closedDays(em, touched, { lock: true });
  const rows = fresh.map((t) => {
    const b = before.get(t.id);
    const late = closed.size > 0 && (closed.has(dayKey({ locationId: t.locationId, businessDay: t.businessDay })) || (b !== undefined && closed.has(dayKey({ locationId: b.location_id, businessDay: b.business_day }))));
    return [t.id, t.locationId, t.businessDay, t.registerId ?? null, t.version, t.status, t.status === 'voided' ? [] : t.tenders, late ? lateReview(now) : null];
  });
  const inserted = await sqlQuery<{ id: string }>(
    em,
    `insert into "cash"."sales_transactions" ("id", "location_id", "business_day", "drawer_id", "version", "status", "tenders", "late_review", "updated_at")
     select x->>0, x->>1, (x->>2)::date, x->>3, (x->>4)::int, x->>5,
       x->6,
       nullif(x->7, 'null'::jsonb), ?
     from jsonb_array_elements(?::jsonb) as x
     on conflict ("id") do update set "location_id" = excluded."location_id", "business_day" = excluded."business_day", "drawer_id" = excluded."drawer_id",
       "version" = excluded."version", "status" = excluded."status", "tenders" = excluded."tenders",
       "late_review" = coalesce(excluded."late_review", "sales_transactions"."late_review"), "updated_at" = excluded."updated_at"
     where "sales_transactions"."version" < excluded."version"
     returning "id"`,
    [now, JSON.stringify(rows)],
  );
  const written = new Set(inserted.map((r) => r.id));
  await applyExpectedDifference(em, fresh.filter((t) => written.has(t.id)), before);
  return touched;
}

/**
 * Keeps `cash.expected_sales` (the day's expected amounts from sales, per drawer, tender type and
 * platform) equal to the sum over the stored transactions: each transaction written here takes its
 * previous version's tenders off (where they were: location, day, drawer) and adds its new ones, in
 * the same database transaction as the write, summed exactly by Postgres' numeric.
 */
async function applyExpectedDifference(em: EntityManager, written: RecordedTransaction[], before: Map<string, { location_id: string; business_day: string; drawer_id: string | null; tenders: RecordedTransaction['tenders'] }>): Promise<void> {
  const changes: Array<[string, string, string, number, RecordedTransaction['tenders']]> = [];
  for (const t of written) {
    const b = before.get(t.id);
    if (b && b.tenders.length > 0) changes.push([b.location_id, b.business_day, b.drawer_id ?? '', -1, b.tenders]);
    if (t.status !== 'voided' && t.tenders.length > 0) changes.push([t.locationId, t.businessDay, t.registerId ?? '', 1, t.tenders]);
  }
  if (changes.length === 0) return;
  await sqlQuery(
    em,
    `insert into "cash"."expected_sales" ("location_id", "business_day", "drawer_key", "tender_type", "platform_key", "amount", "tenders")
     select x->>0, (x->>1)::date, x->>2, d->>'type', case when d->>'type' = 'platform' then coalesce(d->>'platform', '') else '' end,
       sum((x->>3)::int * ((d->>'amount')::numeric - coalesce((d->>'change')::numeric, 0))), sum((x->>3)::int)
     from jsonb_array_elements(?::jsonb) as x, jsonb_array_elements(x->4) as d
     group by 1, 2, 3, 4, 5
     on conflict ("location_id", "business_day", "drawer_key", "tender_type", "platform_key")
     do update set "amount" = "expected_sales"."amount" + excluded."amount", "tenders" = "expected_sales"."tenders" + excluded."tenders"`,
    [JSON.stringify(changes)],
  );
}

/**
 * Consumer of sales' `sales.transactions.recorded`: the expected tenders of each business day; then
 * `onChanged` (re-matching the payouts of the days that changed). A burst of sales is one write.
 */
export const expectedTendersConsumer = (onChanged: (em: EntityManager, days: DayRef[], now: Date) => Promise<void>) => {
  const apply = async (em: EntityManager, events: Array<{ id: string; type: string; data: { object: unknown } }>) => {
    const recorded: RecordedTransaction[] = [];
    for (const event of events) {
      const parsed = recordedTransactions(event.data.object);
      // a producer's bug: parked in dead_letters rather than dropped or guessed
      if (typeof parsed === 'string') throw new Error(`${event.type} ${event.id}: data.object is not a batch of recorded transactions (${parsed})`);
      for (const t of parsed) recorded.push(t);
    }
    const now = new Date();
    const days = await applyRecordedTenders(em, recorded, now);
    if (days.length > 0) await onChanged(em, days, now);
  };
  return defineConsumer({
    name: 'expected-tenders',
    topics: ['sales'],
    types: ['sales.transactions.recorded'],
    async handle({ em, event }) {
      await apply(em, [event]);
    },
    // under load a second of sales gathers into one write (the expected amounts still follow within seconds)
    settleMs: 1000,
    async handleBatch({ em, events }) {
      await apply(em, events.map((e) => e.event));
    },
  });
};

export const expectedConsumers = (onChanged: (em: EntityManager, days: DayRef[], now: Date) => Promise<void>): ConsumerDef[] => [expectedTendersConsumer(onChanged)];
