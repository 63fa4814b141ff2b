import Decimal from 'decimal.js';
import type { SalesSummary as SalesSummaryDto } from '@bop/contracts';
import { changedFields, chunks, lockForTransaction, newId, type StoredRecord, type Work } from '@bop/shared';
import type { PostStoreStep, TransactionRow } from '../transactions/pipeline';
import { builtFigures, builtSummaryHash, builtSummaryKey, businessDayPeriod, transactionContribution, type ChannelAggregate } from './summary-rules';
import { SalesSummaryContribution, SalesSummaryGroup, SalesSummaryGroupDelta } from './entities';
import { dayString, summaryDto, summaryFromRow } from './dto';
import { SUMMARY_UPDATED } from './store';
import { SalesLocation } from '../locations/entities';

export interface DayKey {
  location_id: string;
  source: string;
  business_day: string;
}

export interface AggregateRow {
  location_id: string;
  source: string;
  business_day: string;
  currency: string;
  channel: string | null;
  gross: string;
  discounts: string;
  tax: string;
  sales: number;
  completed: number;
}

const dayKey = (k: DayKey) => `${k.location_id}|${k.source}|${k.business_day}`;

/** Takes up to `limit` day marks off the queue (oldest first, skipping marks another worker holds): their (location, source, day)s. */
export async function takeMarks(w: Work, limit: number): Promise<DayKey[]> {
  // raw SQL (bench:sql sales.rebuild-take): 2207 µs against 11422 through the ORM (5.2×: a locked select, then a delete: two round trips for one)
  // the marks are taken off the shared queue in one statement (delete … returning with SKIP LOCKED)
  return w.em.execute(
    `delete from "${w.schema}"."summary_rebuilds" where "id" in (
       select "id" from "${w.schema}"."summary_rebuilds" order by "id" limit ? for update skip locked
     ) returning "location_id", "source", to_char("business_day", 'YYYY-MM-DD') as "business_day"`,
    [limit],
  );
}

/** Days read a query at a time (a backlog's take of 2,000 marks stays within one statement's parameters). */
const AGGREGATE_DAYS = 100;

/** The channel column of a transaction sent without one (a key column cannot be null). */
const NO_CHANNEL = '';

/**
 * Per (location, source, day, currency, channel) of the days: the completed sales' figures, as
 * exact decimal text, read from the groups' running sums (summary_groups, foldDeltas), so a
 * rebuild costs the same however many transactions the day holds. A group whose transactions are
 * all voided keeps its row (members) with zero figures; one with no transaction left is left out.
 */
export async function aggregateDays(w: Work, days: DayKey[]): Promise<AggregateRow[]> {
  const out: AggregateRow[] = [];
  for (const chunk of chunks(days, AGGREGATE_DAYS)) {
    const groups = await w.em
      .createQueryBuilder(SalesSummaryGroup)
      .select('*')
      .where({ members: { $gt: 0 }, $or: chunk.map((d) => ({ locationId: d.location_id, source: d.source, businessDay: d.business_day })) })
      .execute<Array<Pick<SalesSummaryGroup, 'locationId' | 'source' | 'businessDay' | 'currency' | 'channel' | 'gross' | 'discounts' | 'tax' | 'sales' | 'completed'>>>('all', true);
    for (const g of groups) {
      out.push({
        location_id: g.locationId,
        source: g.source,
        business_day: dayString(g.businessDay),
        currency: g.currency,
        channel: g.channel === NO_CHANNEL ? null : g.channel,
        gross: String(g.gross),
        discounts: String(g.discounts),
        tax: String(g.tax),
        sales: Number(g.sales),
        completed: Number(g.completed),
      });
    }
  }
  return out;
}

interface ContributionRow {
  transactionId: string;
  locationId: string;
  source: string;
  businessDay: string;
  currency: string;
  channel: string;
  gross: string;
  discounts: string;
  tax: string;
  sales: number;
  completed: number;
}

/**
 * Keeps each stored transaction's contribution to its day's summary and appends the difference the
 * batch makes to the sums of the groups its transactions leave and join (an update subtracts what it
 * added before): one read of the updated ones' contributions, one upsert of the contributions, one
 * insert of the differences, in the batch's transaction. Appending takes no lock that another batch
 * of the same day waits for; the day's rebuild folds the differences in (foldDeltas).
 */
export async function recordContributions(w: Work, source: string, stored: StoredRecord<TransactionRow>[]): Promise<void> {
  if (stored.length === 0) return;
  const rows: ContributionRow[] = stored.map((s) => {
    const r = s.row;
    const lines = (typeof r.lines === 'string' ? JSON.parse(r.lines) : r.lines) as Array<{ quantity: string; unitPrice: string; discount?: string | null }>;
    return {
      transactionId: s.id,
      locationId: r.location_id,
      source,
      businessDay: dayString(r.business_day),
      currency: r.currency,
      channel: r.channel ?? NO_CHANNEL,
      ...transactionContribution({ status: r.status, type: r.type, subtotal: r.subtotal, tax: r.tax, lines }),
    };
  });
  const updated = stored.filter((s) => s.status === 'updated').map((s) => s.id);
  const before =
    updated.length === 0
      ? []
      : await w.em
          .createQueryBuilder(SalesSummaryContribution)
          .select('*')
          .where({ transactionId: { $in: updated } })
          .execute<ContributionRow[]>('all', true);

  type Sums = { gross: Decimal; discounts: Decimal; tax: Decimal; sales: number; completed: number; members: number };
  const groups = new Map<string, { key: Pick<ContributionRow, 'locationId' | 'source' | 'businessDay' | 'currency' | 'channel'> } & Sums>();
  const add = (c: ContributionRow, sign: 1 | -1) => {
    const businessDay = dayString(c.businessDay);
    const k = JSON.stringify([c.locationId, c.source, businessDay, c.currency, c.channel]);
    let g = groups.get(k);
    if (!g) {
      g = { key: { locationId: c.locationId, source: c.source, businessDay, currency: c.currency, channel: c.channel }, gross: new Decimal(0), discounts: new Decimal(0), tax: new Decimal(0), sales: 0, completed: 0, members: 0 };
      groups.set(k, g);
    }
    g.gross = g.gross.plus(new Decimal(c.gross).times(sign));
    g.discounts = g.discounts.plus(new Decimal(c.discounts).times(sign));
    g.tax = g.tax.plus(new Decimal(c.tax).times(sign));
    g.sales += sign * Number(c.sales);
    g.completed += sign * Number(c.completed);
    g.members += sign;
  };
  for (const c of before) add(c, -1);
  for (const c of rows) add(c, 1);

  rows.sort((a, b) => (a.transactionId < b.transactionId ? -1 : 1));
  await w.em.createQueryBuilder(SalesSummaryContribution).insert(rows).onConflict('transactionId').merge().execute();
  const deltas = [...groups.values()]
    .filter((g) => g.members !== 0 || !g.gross.isZero() || !g.discounts.isZero() || !g.tax.isZero() || g.sales !== 0 || g.completed !== 0)
    .map((g) => ({ ...g.key, gross: g.gross.toFixed(), discounts: g.discounts.toFixed(), tax: g.tax.toFixed(), sales: g.sales, completed: g.completed, members: g.members }));
  if (deltas.length > 0) await w.em.createQueryBuilder(SalesSummaryGroupDelta).insert(deltas).execute();
}

type GroupKey = Pick<ContributionRow, 'locationId' | 'source' | 'businessDay' | 'currency' | 'channel'>;
const groupKeyOf = (g: GroupKey) => JSON.stringify([g.locationId, g.source, dayString(g.businessDay), g.currency, g.channel]);

/**
 * Folds the differences batches appended for the days into their groups' sums and deletes them. The
 * caller holds the days' rebuild locks (the only writer of their groups); differences committed after
 * this read stay for the next pass (their batches marked the day again).
 */
export async function foldDeltas(w: Work, days: DayKey[]): Promise<void> {
  for (const chunk of chunks(days, AGGREGATE_DAYS)) {
    const dayKeys = chunk.map((d) => ({ locationId: d.location_id, source: d.source, businessDay: d.business_day }));
    const deltas = await w.em
      .createQueryBuilder(SalesSummaryGroupDelta)
      .select('*')
      .where({ $or: dayKeys })
      .execute<Array<ContributionRow & { id: string; members: number }>>('all', true);
    if (deltas.length === 0) continue;
    const sums = new Map<string, GroupKey & { gross: Decimal; discounts: Decimal; tax: Decimal; sales: number; completed: number; members: number }>();
    for (const d of deltas) {
      const k = groupKeyOf(d);
      const g = sums.get(k) ?? { locationId: d.locationId, source: d.source, businessDay: dayString(d.businessDay), currency: d.currency, channel: d.channel, gross: new Decimal(0), discounts: new Decimal(0), tax: new Decimal(0), sales: 0, completed: 0, members: 0 };
      g.gross = g.gross.plus(d.gross);
      g.discounts = g.discounts.plus(d.discounts);
      g.tax = g.tax.plus(d.tax);
      g.sales += Number(d.sales);
      g.completed += Number(d.completed);
      g.members += Number(d.members);
      sums.set(k, g);
    }
    const keys = [...sums.values()];
    const current = await w.em
      .createQueryBuilder(SalesSummaryGroup)
      .select('*')
      .where({ $or: keys.map((g) => ({ locationId: g.locationId, source: g.source, businessDay: g.businessDay, currency: g.currency, channel: g.channel })) })
      .execute<Array<ContributionRow & { members: number }>>('all', true);
    const held = new Map(current.map((c) => [groupKeyOf(c), c]));
    const rows = keys
      .sort((a, b) => (groupKeyOf(a) < groupKeyOf(b) ? -1 : 1))
      .map((g) => {
        const c = held.get(groupKeyOf(g));
        return {
          locationId: g.locationId,
          source: g.source,
          businessDay: g.businessDay,
          currency: g.currency,
          channel: g.channel,
          gross: g.gross.plus(c?.gross ?? 0).toFixed(),
          discounts: g.discounts.plus(c?.discounts ?? 0).toFixed(),
          tax: g.tax.plus(c?.tax ?? 0).toFixed(),
          sales: g.sales + Number(c?.sales ?? 0),
          completed: g.completed + Number(c?.completed ?? 0),
          members: g.members + Number(c?.members ?? 0),
        };
      });
    await w.em.createQueryBuilder(SalesSummaryGroup).insert(rows).onConflict(['locationId', 'source', 'businessDay', 'currency', 'channel']).merge().execute();
    await w.em.nativeDelete(SalesSummaryGroupDelta, { id: { $in: deltas.map((d) => d.id) } });
  }
}

/** The built summaries of the days (all columns, as stored). */
export async function builtSummariesOf(w: Work, daysJson: string): Promise<Array<Record<string, any>>> {
  // raw SQL (bench:sql sales.rebuild-existing): 2964 µs against 11480 through the ORM (3.9×: an $or of the day keys for a join on a recordset)
  // one set-based read of the built summaries of every marked day (a join on a jsonb recordset of day keys)
  return w.em.execute(
    `select s.* from jsonb_to_recordset(?::jsonb) as k(location_id text, source text, business_day date)
     join "${w.schema}"."summaries" s on s."origin" = 'built' and s."location_id" = k.location_id and s."source" = k.source and s."business_day" = k.business_day`,
    [daysJson],
  );
}

/** Writes the changed built summaries (snake_case rows) in one statement: new ones at version 1, stored ones version + 1. */
export async function upsertBuiltSummaries(w: Work, rows: Array<Record<string, unknown>>): Promise<void> {
  // the id is stable across rebuilds: a changed day updates its summary in place (version + 1)
  // raw SQL (bench:sql sales.rebuild-upsert): 5687 µs against 31946 through the ORM (5.6×: the summaries loaded as entities and updated at flush for one upsert)
  // set-based upsert of the changed summaries of every marked day in one statement
  await w.em.execute(
    `insert into "${w.schema}"."summaries" as t ("id", "source", "external_id", "origin", "location_id", "business_day", "period_start", "period_end", "currency",
       "gross_sales", "discounts", "net_sales", "tax", "transactions", "guests", "by_channel", "content_hash", "version", "created_at", "updated_at")
     select x.id, x.source, x.external_id, 'built', x.location_id, x.business_day, x.period_start, x.period_end, x.currency,
       x.gross_sales, x.discounts, x.net_sales, x.tax, x.transactions, null, x.by_channel, x.content_hash, 1, ?, ?
     from jsonb_to_recordset(?::jsonb) as x(id text, source text, external_id text, location_id text, business_day date, period_start timestamptz,
       period_end timestamptz, currency text, gross_sales numeric, discounts numeric, net_sales numeric, tax numeric, transactions int, by_channel jsonb, content_hash text)
     order by x.source, x.external_id
     on conflict ("source", "external_id") do update set
       "period_start" = excluded."period_start", "period_end" = excluded."period_end", "gross_sales" = excluded."gross_sales",
       "discounts" = excluded."discounts", "net_sales" = excluded."net_sales", "tax" = excluded."tax", "transactions" = excluded."transactions",
       "by_channel" = excluded."by_channel", "content_hash" = excluded."content_hash", "version" = t."version" + 1, "updated_at" = excluded."updated_at"
     where t."content_hash" is distinct from excluded."content_hash"`,
    [w.now, w.now, JSON.stringify(rows)],
  );
}

/** Marks (location, business day)s of `source` for the day-summary rebuild. */
export async function insertMarks(w: Work, source: string, days: Array<{ location_id: string; business_day: string }>): Promise<void> {
  // raw SQL (bench:sql sales.rebuild-marks): 1479 µs against 3522 through the ORM (2.4×: insertMany's statement building for one insert … select)
  // set-based insert of an ingestion batch's day marks in one statement (hot path of ingestion)
  await w.em.execute(
    `insert into "${w.schema}"."summary_rebuilds" ("location_id", "source", "business_day", "requested_at")
     select x.location_id, ?, x.business_day, ? from jsonb_to_recordset(?::jsonb) as x(location_id text, business_day date)`,
    [source, w.now, JSON.stringify(days)],
  );
}

/**
 * Takes up to `limit` pending day marks and rebuilds each marked (location, source, business day)
 * once, however many batches marked it (spec: ingestion rules 5, 7 and 9), in the unit's transaction:
 * marks deleted (SKIP LOCKED: replicas share the queue), days locked in lock-id order (a day is
 * rebuilt by one worker at a time, each from a snapshot taken after the previous rebuild committed),
 * one aggregate over the days' transactions, one upsert of what changed, `sales.summary.updated` per
 * changed summary. A day whose transactions are all gone or voided keeps a zero summary. Answers the
 * number of marks taken. Runs in the worker's unit (its transaction, actor system).
 */
export async function rebuildMarkedDays(w: Work, limit: number): Promise<number> {
  const { em, now } = w;
  const marks = await takeMarks(w, limit);
  if (marks.length === 0) return 0;
  const days = [...new Map(marks.map((m) => [dayKey(m), m])).values()].sort((a, b) => (dayKey(a) < dayKey(b) ? -1 : 1));
  const daysJson = JSON.stringify(days);
  await lockForTransaction(em, days.map((d) => `${w.schema}.summary-day ${dayKey(d)}`));
  await foldDeltas(w, days);
  const groups = await aggregateDays(w, days);
  const existing = await builtSummariesOf(w, daysJson);
  const locations = await em
    .createQueryBuilder(SalesLocation)
    .select(['id', 'timezone', 'businessDayCutoff'])
    .where({ id: { $in: [...new Set(days.map((d) => d.location_id))] } })
    .execute<Array<Pick<SalesLocation, 'id' | 'timezone' | 'businessDayCutoff'>>>('all', true);
  const zoneOf = new Map(locations.map((l) => [l.id, l]));

  // one summary per (location, source, day, currency); a stored one with no transactions left is zeroed
  const summaries = new Map<string, { day: DayKey; currency: string; groups: ChannelAggregate[] }>();
  const keyOf = (d: DayKey, currency: string) => builtSummaryKey(d.location_id, d.business_day, currency);
  for (const g of groups) {
    const day = { location_id: g.location_id, source: g.source, business_day: g.business_day };
    const key = `${g.source}|${keyOf(day, g.currency)}`;
    const entry = summaries.get(key) ?? { day, currency: g.currency, groups: [] };
    entry.groups.push({ channel: g.channel, gross: g.gross, discounts: g.discounts, tax: g.tax, sales: Number(g.sales), completed: Number(g.completed) });
    summaries.set(key, entry);
  }
  const before = new Map(existing.map((r) => [`${r.source}|${r.external_id}`, summaryFromRow(r)]));
  const storedHash = new Map(existing.map((r) => [r.id as string, String(r.content_hash)]));
  for (const [key, b] of before) {
    if (!summaries.has(key)) summaries.set(key, { day: { location_id: b.locationId, source: b.source, business_day: b.businessDay! }, currency: b.currency!, groups: [] });
  }

  const writes: Array<{ id: string; key: string; row: Record<string, unknown>; dto: SalesSummaryDto; previous: SalesSummaryDto | null }> = [];
  for (const [key, s] of summaries) {
    const loc = zoneOf.get(s.day.location_id);
    const period = businessDayPeriod(s.day.business_day, loc?.timezone ?? 'UTC', loc?.businessDayCutoff ?? '00:00');
    const figures = builtFigures(s.groups, s.currency);
    const periodStart = period.start.toISOString();
    const periodEnd = period.end.toISOString();
    const hash = builtSummaryHash({ ...figures, periodStart, periodEnd });
    const old = before.get(key);
    if (old && storedHash.get(old.id) === hash) continue;
    const id = old?.id ?? newId('salesSummary');
    const externalId = keyOf(s.day, s.currency);
    const dto = summaryDto({
      id,
      source: s.day.source,
      externalId,
      origin: 'built',
      locationId: s.day.location_id,
      businessDay: s.day.business_day,
      periodStart,
      periodEnd,
      currency: s.currency,
      ...figures,
      guests: null,
      version: old ? old.version + 1 : 1,
      createdAt: old?.createdAt ?? now,
      updatedAt: now,
    });
    writes.push({
      id,
      key,
      previous: old ? summaryDto(old) : null,
      dto,
      row: {
        id,
        source: s.day.source,
        external_id: externalId,
        location_id: s.day.location_id,
        business_day: s.day.business_day,
        period_start: periodStart,
        period_end: periodEnd,
        currency: s.currency,
        gross_sales: figures.grossSales,
        discounts: figures.discounts,
        net_sales: figures.netSales,
        tax: figures.tax,
        transactions: figures.transactions,
        by_channel: figures.byChannel,
        content_hash: hash,
      },
    });
  }
  if (writes.length === 0) return marks.length;

  await upsertBuiltSummaries(w, writes.map((s) => s.row));
  // the worker's unit: actor system
  for (const s of writes) {
    w.emit({
      type: SUMMARY_UPDATED,
      aggregateType: 'sales_summary',
      aggregateId: s.id,
      locationId: s.dto.locationId,
      object: s.dto,
      ...(s.previous ? { previous: changedFields(s.previous, s.dto, ['version', 'updatedAt']) } : {}),
    });
  }
  return marks.length;
}

/**
 * Marks the (location, source, business day)s a write touched for the background day-summary
 * rebuild (spec: ingestion rules 5 and 7): the new row's day and, for an update, the day it had
 * before (a sale moved to another day, or another location, changes both). One insert per batch;
 * the worker coalesces repeated marks of a day into one rebuild.
 */
export const markDaysForRebuild: PostStoreStep = async (ctx, stored) => {
  const days = new Map<string, { location_id: string; business_day: string }>();
  const mark = (locationId: unknown, day: unknown) => {
    if (typeof locationId !== 'string' || day == null) return;
    const d = dayString(day);
    days.set(`${locationId}|${d}`, { location_id: locationId, business_day: d });
  };
  for (const s of stored) {
    mark(s.row.location_id, s.row.business_day);
    if (s.before) mark(s.before.location_id, s.before.business_day);
  }
  await recordContributions(ctx.w, ctx.source, stored);
  if (days.size > 0) {
    await insertMarks(ctx.w, ctx.source, [...days.values()]);
  }
  return [];
};
