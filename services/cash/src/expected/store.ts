import type Decimal from 'decimal.js';
import type { ExpectedAmount } from '@bop/contracts';
import { lockForTransaction, sqlList, sqlQuery, type EntityManager, type Work } from '@bop/shared';
import { dayKey, lateReview, type DayRef } from '../days/lock';
import { closedDays, touchDays } from '../days/lock-store';
import type { RecordedTransaction } from './consumers';
import { expectedByDay, sumExpected, type ExpectedRow } from './expected';

/** The expected amounts of each of these days of a location (days without any: an empty list). */
export async function expectedAmounts(w: Work, locationId: string, days: string[]): Promise<Map<string, ExpectedAmount[]>> {
  if (days.length === 0) return new Map();
  const { em } = w;
  const dayList = sqlList(days);
  // raw SQL (bench:sql cash.expected-amounts): 9,715 µs against 22,141 through the ORM (2.3×: every tender total hydrated and summed in code);
  // both reads, on the path of every sale (the re-match) and of every count and close: keys folded back to nulls in SQL and sums exact in numeric
  const fromSales = await sqlQuery<ExpectedRow>(
    em,
    // kept per day by the sales consumer (applyRecordedTenders below): a read does not grow with the day's sales
    `select to_char("business_day", 'YYYY-MM-DD') as "business_day", nullif("drawer_key", '') as "drawer_id", "tender_type",
       case when "tender_type" = 'platform' then nullif("platform_key", '') end as "platform", "amount"::text as "amount"
     from "${w.schema}"."expected_sales"
     where "location_id" = ? and "business_day" = any(?::date[]) and "tenders" > 0`,
    [locationId, dayList],
  );
  const fromTotals = await sqlQuery<ExpectedRow>(
    em,
    `select to_char("business_day", 'YYYY-MM-DD') as "business_day", "drawer_id", "tender_type", "platform", sum("amount")::text as "amount"
     from "${w.schema}"."tender_totals"
     where "location_id" = ? and "business_day" = any(?::date[])
     group by 1, 2, 3, 4`,
    [locationId, dayList],
  );
  return expectedByDay(days, fromSales, fromTotals);
}

/** A drawer's expected cash of a day (cash tenders net of change). */
export async function expectedDrawerCash(w: Work, locationId: string, businessDay: string, drawerId: string): Promise<Decimal> {
  const amounts = (await expectedAmounts(w, locationId, [businessDay])).get(businessDay) ?? [];
  return sumExpected(amounts, (a) => a.tenderType === 'cash' && a.drawerId === drawerId);
}

/**
 * Writes the newest version of each transaction (an older or equal version delivered again changes
 * nothing) with its tenders as sent (a voided transaction: none), and moves the day's running expected
 * amounts by the difference between the versions (cash net of change). A transaction of a closed day — as it is now or as it was —
 * is stored flagged for review: the day's locked figures stay as they were until it is reopened.
 * Answers the days whose expected amounts changed.
 */
export async function applyRecordedTenders(w: Work, recorded: RecordedTransaction[]): Promise<DayRef[]> {
  const { em, now } = w;
  const newest = new Map<string, RecordedTransaction>();
  for (const t of recorded) if ((newest.get(t.id)?.version ?? 0) < t.version) newest.set(t.id, t);
  if (newest.size === 0) return [];
  const list = [...newest.values()];
  // one writer of the running day amounts at a time: a version of a transaction cash has not stored yet
  // has no row to lock, and two writers would each add it without taking the other's off
  await lockForTransaction(em, `${w.schema}.expected_sales`);
  // raw SQL (bench:sql cash.apply-recorded-tenders): 183,033 µs against 468,940 through the ORM (2.6×: 1,000 entities loaded, changed and
  // flushed, and the day sums read and written back); the hot path of every sale: one statement locks all the batch's stored versions in id order
  const stored = await sqlQuery<{ id: string; location_id: string; business_day: string; version: number; drawer_id: string | null; tenders: RecordedTransaction['tenders'] }>(
    em,
    `select "id", "location_id", to_char("business_day", 'YYYY-MM-DD') as "business_day", "version", "drawer_id", "tenders" from "${w.schema}"."sales_transactions"
     where "id" = any(?::text[]) order by "id" for update`,
    [sqlList(list.map((t) => t.id))],
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
  await touchDays(w, touched);
  const closed = await closedDays(w, touched, { lock: true });
  const rows = fresh.map((t) => {
    const b = before.get(t.id);
    const late = closed.size > 0 && (closed.has(dayKey({ locationId: t.locationId, businessDay: t.businessDay })) || (b !== undefined && closed.has(dayKey({ locationId: b.location_id, businessDay: b.business_day }))));
    return [t.id, t.locationId, t.businessDay, t.registerId ?? null, t.version, t.status, t.status === 'voided' ? [] : t.tenders, late ? lateReview(now) : null];
  });
  // raw SQL (bench:sql cash.apply-recorded-tenders): a set-based upsert of the whole batch in one statement (newer versions only)
  const inserted = await sqlQuery<{ id: string }>(
    em,
    `insert into "${w.schema}"."sales_transactions" ("id", "location_id", "business_day", "drawer_id", "version", "status", "tenders", "late_review", "updated_at")
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
  await applyExpectedDifference(em, w.schema, fresh.filter((t) => written.has(t.id)), before);
  return touched;
}

/**
 * Keeps `cash.expected_sales` (the day's expected amounts from sales, per drawer, tender type and
 * platform) equal to the sum over the stored transactions: each transaction written here takes its
 * previous version's tenders off (where they were: location, day, drawer) and adds its new ones, in
 * the same database transaction as the write, summed exactly by Postgres' numeric.
 */
async function applyExpectedDifference(em: EntityManager, schema: string, written: RecordedTransaction[], before: Map<string, { location_id: string; business_day: string; drawer_id: string | null; tenders: RecordedTransaction['tenders'] }>): Promise<void> {
  const changes: Array<[string, string, string, number, RecordedTransaction['tenders']]> = [];
  for (const t of written) {
    const b = before.get(t.id);
    if (b && b.tenders.length > 0) changes.push([b.location_id, b.business_day, b.drawer_id ?? '', -1, b.tenders]);
    if (t.status !== 'voided' && t.tenders.length > 0) changes.push([t.locationId, t.businessDay, t.registerId ?? '', 1, t.tenders]);
  }
  if (changes.length === 0) return;
  // raw SQL (bench:sql cash.apply-recorded-tenders): a set-based upsert of the running day sums (grouped over the tenders of jsonb elements),
  // against reading the sums, changing them in code and flushing them (measured with the whole batch above)
  await sqlQuery(
    em,
    `insert into "${schema}"."expected_sales" ("location_id", "business_day", "drawer_key", "tender_type", "platform_key", "amount", "tenders")
     select x->>0, (x->>1)::date, x->>2, d->>'type', case when d->>'type' = 'platform' then coalesce(d->>'platform', '') else '' end,
       sum((x->>3)::int * ((d->>'amount')::numeric - coalesce((d->>'change')::numeric, 0))), sum((x->>3)::int)
     from jsonb_array_elements(?::jsonb) as x, jsonb_array_elements(x->4) as d
     group by 1, 2, 3, 4, 5
     on conflict ("location_id", "business_day", "drawer_key", "tender_type", "platform_key")
     do update set "amount" = "expected_sales"."amount" + excluded."amount", "tenders" = "expected_sales"."tenders" + excluded."tenders"`,
    [JSON.stringify(changes)],
  );
}
