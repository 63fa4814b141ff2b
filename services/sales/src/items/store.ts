import type { PosItemRefField } from '@bop/contracts';
import { LockMode, type FilterQuery } from '@mikro-orm/core';
import {
  actorOf,
  findPage,
  newId,
  OutOfReach,
  reachableLocationIds,
  sqlQuery,
  lockForTransaction,
  ValidationError,
  type FieldError,
  type IngestEvent,
  type ListPage,
  type PageRequest,
  type Work,
} from '@bop/shared';
import type { StoredLine } from '../transactions/normalize';
import { SalesTransaction } from '../transactions/entities';
import { dayString } from '../summaries/dto';
import { formatMoney } from '../transactions/money';
import type { PreStoreStep, PostStoreStep, TransactionRow } from '../transactions/pipeline';
import { transactionEvents } from '../transactions/recorded-events';
import { entryFromRow, unmappedItemDto } from './dto';
import { itemReadThrough } from './replica-store';
import { SalesItem, SalesUnmappedItem } from './entities';

/** How a sales line or order line names its item (spec: ingestion rule 3: any one matches). */
export interface ItemRef {
  itemSku?: string | null;
  itemBarcode?: string | null;
  itemExternalId?: string | null;
}

/** A POS item within its source: the strongest reference its lines carry. */
export interface PosItemKey {
  refField: PosItemRefField;
  refValue: string;
}

/**
 * The POS item a line names: itemExternalId, else itemSku, else itemBarcode. A line naming none
 * (a service charge, an open item) has nothing to match or map: it is stored unmatched, not queued.
 */
export function posItemKey(ref: ItemRef): PosItemKey | null {
  if (ref.itemExternalId) return { refField: 'itemExternalId', refValue: ref.itemExternalId };
  if (ref.itemSku) return { refField: 'itemSku', refValue: ref.itemSku };
  if (ref.itemBarcode) return { refField: 'itemBarcode', refValue: ref.itemBarcode };
  return null;
}

/** `posItemKey` in SQL over a jsonb line `l` (same precedence), for set-based recalculation. */
export const LINE_REF_FIELD_SQL = (l: string) =>
  `(case when ${l}->>'itemExternalId' is not null then 'itemExternalId' when ${l}->>'itemSku' is not null then 'itemSku' when ${l}->>'itemBarcode' is not null then 'itemBarcode' end)`;
export const LINE_REF_VALUE_SQL = (l: string) => `coalesce(${l}->>'itemExternalId', ${l}->>'itemSku', ${l}->>'itemBarcode')`;

/**
 * Serialises mapping against matching per source: writers that match lines hold it shared until they
 * commit, `:map` holds it exclusive. So a line matched before a mapping commits is always stored
 * before the mapping's recalculation reads the sales, and a line matched after it sees the mapping.
 * Transaction-scoped: call it inside the transaction that stores the lines.
 */
export async function lockItemMappings(w: Work, sources: string[], mode: 'shared' | 'exclusive'): Promise<void> {
  await lockForTransaction(
    w.em,
    sources.map((source) => `${w.schema}.item-mapping ${source}`),
    { shared: mode === 'shared' },
  );
}

/** Among several replica items with the same reference: active before archived, then the latest state. */
const PICK = `order by it."status" = 'active' desc, it."updated_at" desc, it."id" limit 1`;

/**
 * One set-based lookup: per distinct ref, the mapped item of its POS item (when `source` is given),
 * else the replica item by externalId, then SKU, then barcode. Archived items still match: a
 * backfilled or late sale of a discontinued item is still that item.
 */
export async function lookup(w: Work, source: string | null, refs: ItemRef[]): Promise<Array<string | null>> {
  const slot = new Map<string, number>();
  const distinct: Array<{ i: number; ref_field: string | null; ref_value: string | null; ext: string | null; sku: string | null; barcode: string | null }> = [];
  const at = refs.map((r) => {
    const key = posItemKey(r);
    if (!key) return -1;
    const k = JSON.stringify([r.itemExternalId ?? null, r.itemSku ?? null, r.itemBarcode ?? null]);
    let i = slot.get(k);
    if (i === undefined) {
      i = distinct.length;
      slot.set(k, i);
      distinct.push({ i, ref_field: key.refField, ref_value: key.refValue, ext: r.itemExternalId ?? null, sku: r.itemSku ?? null, barcode: r.itemBarcode ?? null });
    }
    return i;
  });
  if (distinct.length === 0) return refs.map(() => null);
  const mapped = source === null
    ? ''
    : `(select m."item_id" from "${w.schema}"."unmapped_items" m where m."source" = ? and m."ref_field" = r."ref_field" and m."ref_value" = r."ref_value" and m."status" = 'mapped'),`;
  // raw SQL (bench:sql sales.item-lookup): 112094 µs against 212030 through the ORM (1.9×: four queries for one, the precedence picked in code)
  // one set-based lookup for all the refs of an ingestion batch (jsonb recordset, correlated subqueries in precedence order)
  const rows = await sqlQuery<{ i: number; item_id: string | null }>(
    w.em,
    `select r."i", coalesce(${mapped}
       (select it."id" from "${w.schema}"."items" it where r."ext" is not null and it."external_id" = r."ext" ${PICK}),
       (select it."id" from "${w.schema}"."items" it where r."sku" is not null and it."sku" = r."sku" ${PICK}),
       (select it."id" from "${w.schema}"."items" it where r."barcode" is not null and it."barcodes" @> array[r."barcode"] ${PICK})
     ) as "item_id"
     from jsonb_to_recordset(?::jsonb) as r("i" int, "ref_field" text, "ref_value" text, "ext" text, "sku" text, "barcode" text)`,
    source === null ? [JSON.stringify(distinct)] : [source, JSON.stringify(distinct)],
  );
  const found = new Map(rows.map((r) => [Number(r.i), r.item_id]));
  return at.map((i) => (i < 0 ? null : (found.get(i) ?? null)));
}

/**
 * The item id each ref matches for `source` (explicit mappings from `unmapped-items:map` first,
 * then the item replica by externalId, SKU, barcode), or null. Same order as `refs`.
 * Used by the transaction batch step and by online orders.
 */
export async function resolveItemRefs(w: Work, source: string, refs: ItemRef[]): Promise<Array<string | null>> {
  if (!refs.some((r) => posItemKey(r) !== null)) return refs.map(() => null);
  await lockItemMappings(w, [source], 'shared');
  const ids = await lookup(w, source, refs);
  const missing = refs.filter((r, i) => ids[i] === null && posItemKey(r) !== null);
  if (missing.length === 0) return ids;
  // read-your-writes: an item inventory has answered a moment ago may not have reached the replica
  // yet; inventory's answer (by the lines' references) goes into the replica, and the lines that now
  // match are matched. Inventory unreachable: the lines are stored unmatched and queued for mapping
  // (a sale is never refused for its catalogue), as with a reference no item carries.
  const distinct = (pick: (r: ItemRef) => string | null | undefined) => [...new Set(missing.flatMap((r) => pick(r) ?? []))];
  const answer = await itemReadThrough.read(
    w.em,
    w.schema,
    { externalIds: distinct((r) => r.itemExternalId), skus: distinct((r) => r.itemSku), barcodes: distinct((r) => r.itemBarcode) },
    undefined,
    w.services,
  );
  if (answer.status !== 'answered' || answer.rows.length === 0) return ids;
  const again = await lookup(w, source, missing);
  let k = 0;
  return ids.map((id, i) => (id === null && posItemKey(refs[i]) !== null ? again[k++] : id));
}

/** The replica item each ref matches now, ignoring mappings (suggestions for open queue entries). */
export const replicaItemIds = (w: Work, refs: ItemRef[]) => lookup(w, null, refs);

/** One unmatched line seen in a stored record (transaction or order). */
export interface UnmatchedLine extends ItemRef {
  name?: string | null;
}

export const SAMPLE_NAMES = 5;

export interface Seen {
  key: PosItemKey;
  ext: string | null;
  sku: string | null;
  barcode: string | null;
  /** records newly carrying it minus records that carried it before and no longer do */
  delta: number;
  /** records of this call carrying it now */
  now: number;
  firstSeen: string | null;
  lastSeen: string | null;
  firstSeenMs: number;
  lastSeenMs: number;
  names: string[];
  locations: string[];
}

/** What one stored record carries unmatched now, and carried before (null: a new record). */
export interface UnmatchedRecord {
  recordId: string;
  locationId: string;
  seenAt: string;
  lines: UnmatchedLine[];
  before: UnmatchedLine[] | null;
}

/** The POS items of the records' unmatched lines, in key order: count changes, seen times, sample names, locations. */
export function unmatchedPosItems(records: UnmatchedRecord[]): Seen[] {
  const seen = new Map<string, Seen>();
  const entry = (key: PosItemKey) => {
    const k = `${key.refField}\u0000${key.refValue}`;
    let s = seen.get(k);
    if (!s) seen.set(k, (s = { key, ext: null, sku: null, barcode: null, delta: 0, now: 0, firstSeen: null, lastSeen: null, firstSeenMs: 0, lastSeenMs: 0, names: [], locations: [] }));
    return s;
  };
  const keysOf = (lines: UnmatchedLine[]) => {
    const byKey = new Map<string, { key: PosItemKey; lines: UnmatchedLine[] }>();
    for (const l of lines) {
      const key = posItemKey(l);
      if (!key) continue;
      const k = `${key.refField}\u0000${key.refValue}`;
      const g = byKey.get(k);
      if (g) g.lines.push(l);
      else byKey.set(k, { key, lines: [l] });
    }
    return byKey;
  };
  const noLines = new Map<string, { key: PosItemKey; lines: UnmatchedLine[] }>();
  for (const rec of records) {
    const now = keysOf(rec.lines);
    const before = rec.before && rec.before.length > 0 ? keysOf(rec.before) : noLines;
    const seenAt = Date.parse(rec.seenAt);
    for (const [k, g] of now) {
      const s = entry(g.key);
      // counts are per record: a line seen again in an updated record does not count twice
      if (!before.has(k)) s.delta += 1;
      s.now += 1;
      if (s.firstSeen === null || seenAt < s.firstSeenMs) {
        s.firstSeen = rec.seenAt;
        s.firstSeenMs = seenAt;
      }
      if (s.lastSeen === null || seenAt > s.lastSeenMs) {
        s.lastSeen = rec.seenAt;
        s.lastSeenMs = seenAt;
      }
      if (!s.locations.includes(rec.locationId)) s.locations.push(rec.locationId);
      for (const l of g.lines) {
        s.ext ??= l.itemExternalId ?? null;
        s.sku ??= l.itemSku ?? null;
        s.barcode ??= l.itemBarcode ?? null;
        const name = l.name?.trim();
        if (name && s.names.length < SAMPLE_NAMES && !s.names.includes(name)) s.names.push(name);
      }
    }
    for (const [k, g] of before) if (!now.has(k)) entry(g.key).delta -= 1;
  }
  return [...seen.values()]
    .filter((s) => s.delta !== 0 || s.now > 0)
    .sort((a, b) => (a.key.refField === b.key.refField ? (a.key.refValue < b.key.refValue ? -1 : 1) : a.key.refField < b.key.refField ? -1 : 1));
}

/**
 * Enters the unmatched POS items of one or more stored records into the unmapped-items queue
 * (counts, first/last seen, sample names) and answers the `sales.unmapped_item` events for POS items
 * that were not yet in the queue (once per new POS item). `records` carry what each stored record
 * now has unmatched and what it had before (for exact counts on updates).
 */
export async function recordUnmatched(
  w: Work,
  source: string,
  records: UnmatchedRecord[],
): Promise<Array<IngestEvent & { aggregateType: string; aggregateId: string }>> {
  const rows = unmatchedPosItems(records);
  if (rows.length === 0) return [];
  const at = w.now;
  const payload = rows.map((s) => ({
    id: newId('unmappedItem'),
    ref_field: s.key.refField,
    ref_value: s.key.refValue,
    ext: s.ext,
    sku: s.sku,
    barcode: s.barcode,
    delta: s.delta,
    n_now: s.now,
    // a POS item only removed from records leaves its seen times alone (least/greatest with ±infinity)
    first_seen: s.firstSeen ?? 'infinity',
    last_seen: s.lastSeen ?? '-infinity',
    names: s.names,
    locations: [...s.locations].sort(),
  }));
  // one statement for the batch, in key order (concurrent batches lock entries in the same order);
  // a mapped entry's count is frozen: its lines match the item from then on
  // raw SQL (bench:sql sales.unmatched-upsert): as fast as the ORM's load, change and flush (0.97–1.06× in three runs), kept
  // for what the ORM cannot do under concurrency: `on conflict … do update` merges a POS item that
  // concurrent batches see first at once (a new menu item at every location), where the ORM's insert
  // loses the race and reruns the whole batch — and a batch naming several new items can lose twice (409)
  const written = await sqlQuery(
    w.em,
    `with x as (
       select * from jsonb_to_recordset(?::jsonb) as x("id" text, "ref_field" text, "ref_value" text, "ext" text, "sku" text, "barcode" text,
         "delta" int, "n_now" int, "first_seen" timestamptz, "last_seen" timestamptz, "names" text[], "locations" text[])
     )
     insert into "${w.schema}"."unmapped_items" as u ("id", "source", "ref_field", "ref_value", "item_external_id", "item_sku", "item_barcode",
       "sample_names", "transaction_count", "first_seen_at", "last_seen_at", "location_ids", "status", "version", "created_at", "updated_at")
     select x."id", ?, x."ref_field", x."ref_value", x."ext", x."sku", x."barcode", x."names", x."n_now", x."first_seen", x."last_seen",
       x."locations", 'open', 1, ?, ?
     from x
     where x."n_now" > 0
        or exists (select 1 from "${w.schema}"."unmapped_items" e where e."source" = ? and e."ref_field" = x."ref_field" and e."ref_value" = x."ref_value")
     order by x."ref_field", x."ref_value"
     on conflict ("source", "ref_field", "ref_value") do update set
       "transaction_count" = greatest(0, u."transaction_count" + (select x."delta" from x where x."ref_field" = u."ref_field" and x."ref_value" = u."ref_value")),
       "first_seen_at" = least(u."first_seen_at", excluded."first_seen_at"),
       "last_seen_at" = greatest(u."last_seen_at", excluded."last_seen_at"),
       "sample_names" = array(select s.v from unnest(u."sample_names" || excluded."sample_names") with ordinality s(v, o) group by s.v order by min(s.o) limit ${SAMPLE_NAMES}),
       "location_ids" = array(select distinct unnest(u."location_ids" || excluded."location_ids") order by 1),
       "item_external_id" = coalesce(u."item_external_id", excluded."item_external_id"),
       "item_sku" = coalesce(u."item_sku", excluded."item_sku"),
       "item_barcode" = coalesce(u."item_barcode", excluded."item_barcode"),
       "version" = u."version" + 1,
       "updated_at" = excluded."updated_at"
     where u."status" = 'open'
     returning u.*, (u."xmax" = 0) as "inserted"`,
    [JSON.stringify(payload), source, at, at, source],
  );
  const firstLocation = new Map(rows.map((s) => [`${s.key.refField}\u0000${s.key.refValue}`, s.locations[0] ?? null]));
  // spec: sales.unmapped_item — a line's item cannot be matched and that POS item is not yet in the queue
  return written
    .filter((r) => r.inserted)
    .map((r) => {
      const e = entryFromRow(r);
      return {
        type: 'sales.unmapped_item',
        aggregateType: 'sales_unmapped_item',
        aggregateId: e.id,
        locationId: firstLocation.get(`${e.refField}\u0000${e.refValue}`) ?? e.locationIds[0] ?? null,
        object: unmappedItemDto(e) as unknown as Record<string, unknown>,
      };
    });
}

/** spec: ingestion rule 3 — fills each line's `itemId` from mappings and the item replica (one query for the whole batch). */
export const matchItems: PreStoreStep = async (ctx, candidates) => {
  const lines = candidates.flatMap((c) => c.normalized.lines);
  if (lines.length === 0) return;
  const ids = await resolveItemRefs(ctx.w, ctx.source, lines);
  lines.forEach((line, i) => {
    line.itemId = ids[i];
  });
};

const unmatched = (lines: StoredLine[] | null | undefined) => (lines ?? []).filter((l) => (l.itemId ?? null) === null);

/**
 * spec: ingestion rule 3 — unmatched lines are stored and their POS items listed in the unmapped-items
 * queue; `sales.unmapped_item` once per new POS item. Counts compare with the row before, so an
 * updated record never counts twice and one that drops the line counts no more.
 */
export const recordUnmappedItems: PostStoreStep = async (ctx, stored) => {
  const records = stored
    .map((s) => ({
      recordId: s.id,
      locationId: s.row.location_id,
      seenAt: s.row.occurred_at,
      lines: unmatched(s.row.lines),
      before: s.before ? unmatched(s.before.lines as StoredLine[]) : null,
    }))
    .filter((r) => r.lines.length > 0 || (r.before?.length ?? 0) > 0);
  if (records.length === 0) return [];
  return recordUnmatched(ctx.w, ctx.source, records);
};

export interface Change {
  source: string;
  ref_field: string;
  ref_value: string;
  item_id: string;
  /** the item the entry was mapped to before (a correction), whose lines move to the new item */
  old_item_id: string | null;
}

/** A jsonb line `l` of a record aliased `t` names the POS item of change `m`, unmatched or matched through the mapping being corrected. */
const matches = (l: string) =>
  `m."source" = t."source" and m."ref_field" = ${LINE_REF_FIELD_SQL(l)} and m."ref_value" = ${LINE_REF_VALUE_SQL(l)} and (${l}->>'itemId' is null or ${l}->>'itemId' = m."old_item_id")`;

/**
 * The one statement that gives the lines of `table` (transactions or orders) naming a mapped POS item
 * their item: the rows are locked in (source, externalId) order, version +1, updated_at now.
 */
const remapLinesSql = (schema: string, table: '"transactions"' | '"orders"', returning: string) => `with m as materialized (
       select * from jsonb_to_recordset(?::jsonb) as m("source" text, "ref_field" text, "ref_value" text, "item_id" text, "old_item_id" text)
     ),
     hit as materialized (
       select t."id" from "${schema}".${table} t
       where t."source" in (select m."source" from m)
         and exists (select 1 from m, jsonb_array_elements(t."lines") as l(v) where ${matches('l.v')})
       order by t."source", t."external_id"
       for update of t
     )
     update "${schema}".${table} t set
       "lines" = (
         select jsonb_agg(case when m."item_id" is null then e.v else jsonb_set(e.v, '{itemId}', to_jsonb(m."item_id")) end order by e.n)
         from jsonb_array_elements(t."lines") with ordinality as e(v, n)
         left join m on ${matches('e.v')}
       ),
       "version" = t."version" + 1,
       "updated_at" = ?
     from hit where t."id" = hit."id"
     returning ${returning}`;

/** Transactions read a page at a time while looking for the lines a mapping changes. */
const REMAP_PAGE = 5000;

/** The change whose POS item a stored line names (unmatched, or matched through the mapping being corrected), if any. */
const changeOf = (changes: Change[], source: string, l: StoredLine) => {
  const key = posItemKey(l);
  if (!key) return undefined;
  return changes.find((m) => m.source === source && m.ref_field === key.refField && m.ref_value === key.refValue && ((l.itemId ?? null) === null || l.itemId === m.old_item_id));
};

/**
 * spec: ingestion rule 3 — "when someone links it, past sales are recalculated": the stored lines of
 * each mapped POS item (unmatched, or matched through the mapping being corrected) get the item. The
 * sources' transactions are read a page at a time (a jsonb array the ORM does not reach into), those
 * naming the items locked in (source, externalId) order and written. Version and updated_at move
 * (pollers of `updatedSince` see it); the content hash does not (a re-send of the same content stays
 * `unchanged`).
 */
export async function recalculate(w: Work, changes: Change[]): Promise<Array<{ id: string; source: string; externalId: string; version: number; row: TransactionRow }>> {
  const sources = [...new Set(changes.map((c) => c.source))];
  const hits: string[] = [];
  for (let after = ''; ; ) {
    const page = await w.em
      .createQueryBuilder(SalesTransaction)
      .select(['id', 'source', 'lines'])
      .where({ source: { $in: sources }, id: { $gt: after } })
      .orderBy({ id: 'asc' })
      .limit(REMAP_PAGE)
      .execute<Array<Pick<SalesTransaction, 'id' | 'source' | 'lines'>>>('all', true);
    for (const t of page) if ((t.lines ?? []).some((l) => changeOf(changes, t.source, l))) hits.push(t.id);
    if (page.length < REMAP_PAGE) break;
    after = page[page.length - 1].id;
  }
  if (hits.length === 0) return [];
  const rows = await w.em.find(SalesTransaction, { id: { $in: hits } }, { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { source: 'asc', externalId: 'asc' } });
  for (const t of rows) {
    t.lines = t.lines.map((l) => {
      const m = changeOf(changes, t.source, l);
      return m && m.item_id !== null ? { ...l, itemId: m.item_id } : l;
    });
    t.version += 1;
    t.updatedAt = w.now;
  }
  await w.em.flush();
  return rows.map((t) => ({
    id: t.id,
    source: t.source,
    externalId: t.externalId,
    version: t.version,
    row: {
      location_id: t.locationId,
      occurred_at: t.occurredAt.toISOString(),
      business_day: dayString(t.businessDay),
      type: t.type as TransactionRow['type'],
      status: t.status as TransactionRow['status'],
      channel: t.channel ?? null,
      register_id: t.registerId ?? null,
      employee_external_id: t.employeeExternalId ?? null,
      // numeric(18,6) reads back as "12.500000"
      subtotal: formatMoney(t.subtotal, t.currency),
      tax: formatMoney(t.tax, t.currency),
      total: formatMoney(t.total, t.currency),
      currency: t.currency,
      refund_of: t.refundOf ?? null,
      lines: t.lines,
      tenders: t.tenders,
    },
  }));
}

/**
 * spec: ingestion rule 3 — online orders record unmatched POS items in the same queue, so the lines of
 * the source's stored orders naming a mapped POS item get the item too (same rule as sales, one
 * set-based update). Version and updated_at move; the content hashes do not (itemId is derived, so a
 * re-sent order stays `unchanged`). No order event: the catalogue has none for a changed order.
 * Answers the number of orders changed.
 */
export async function recalculateOrders(w: Work, changes: Change[]): Promise<number> {
  // raw SQL (bench:sql sales.remap-orders): 32422 µs against 63790 through the ORM (2.0×: every order of the source read to find the lines: the ORM does not reach into a jsonb array)
  // the same set-based jsonb rewrite of the lines, over the source's orders
  const rows = await sqlQuery<{ id: string }>(
    w.em,
    remapLinesSql(w.schema, '"orders"', 't."id"'),
    [JSON.stringify(changes), w.now],
  );
  return rows.length;
}

/** `GET /sales/unmapped-items`: a page of queue entries (keyset after `after`, ordered by id), `limit` rows at most. */
export async function listUnmappedItems(
  w: Work,
  f: { status: string; source?: string; locationId?: string; reachable: string[] | null },
  page: PageRequest & { updatedSince?: string },
): Promise<ListPage<SalesUnmappedItem>> {
  const { status, source, locationId, reachable } = f;
  const where: FilterQuery<SalesUnmappedItem> = { status };
  if (source) where.source = source;
  if (locationId) where.locationIds = { $contains: [locationId] };
  else if (reachable) where.locationIds = { $overlap: reachable };
  return findPage(w.em, SalesUnmappedItem, [where], page);
}

/**
 * `POST /sales/unmapped-items:map` in the unit's transaction: links POS items to items (all or nothing),
 * recalculates their past sales and orders, and records the events.
 */
export async function mapUnmappedItems(w: Work, mappings: Array<{ unmappedItemId: string; itemId: string }>) {
  const { em, now } = w;
  const entryIds = [...new Set(mappings.map((m) => m.unmappedItemId))];
  const sources = await em.createQueryBuilder(SalesUnmappedItem).select('source', true).where({ id: { $in: entryIds } }).execute<Array<{ source: string }>>('all');
  // waits for batches of these sources that matched lines before this mapping, and holds new ones back
  await lockItemMappings(w, sources.map((s) => s.source), 'exclusive');
  const entries = await em.find(SalesUnmappedItem, { id: { $in: entryIds } }, { orderBy: { id: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE });
  const items = await em.createQueryBuilder(SalesItem).select('id').where({ id: { $in: [...new Set(mappings.map((m) => m.itemId))] } }).execute<Array<{ id: string }>>('all');
  const byId = new Map(entries.map((e) => [e.id, e]));
  const known = new Set(items.map((r) => r.id));
  const errors: FieldError[] = [];
  mappings.forEach((m, i) => {
    if (!byId.has(m.unmappedItemId)) errors.push({ path: `mappings[${i}].unmappedItemId`, message: `No unmapped item ${m.unmappedItemId}.` });
    if (!known.has(m.itemId)) errors.push({ path: `mappings[${i}].itemId`, message: `No item ${m.itemId}.` });
  });
  if (errors.length > 0) throw new ValidationError(errors);
  // the recalculation touches sales at every location the POS item was sold at
  const reachable = reachableLocationIds(w.reach());
  if (reachable) {
    for (const e of byId.values()) {
      const outside = e.locationIds.find((id) => !reachable.includes(id));
      if (outside) throw new OutOfReach(`Unmapped item ${e.id} was sold at location ${outside}, which your permission does not reach.`);
    }
  }
  const changes: Change[] = mappings.flatMap((m) => {
    const e = byId.get(m.unmappedItemId)!;
    return e.itemId === m.itemId ? [] : [{ source: e.source, ref_field: e.refField, ref_value: e.refValue, item_id: m.itemId, old_item_id: e.itemId ?? null }];
  });
  if (changes.length === 0) {
    return { mapped: mappings.map((m) => unmappedItemDto(byId.get(m.unmappedItemId)!, { reachable })), transactionsRecalculated: 0, ordersRecalculated: 0 };
  }

  const recalculated = await recalculate(w, changes);
  // still under the exclusive mapping lock: an order PUT matching lines waits, then sees the mapping
  const ordersRecalculated = await recalculateOrders(w, changes);
  // each entry to its own item, in one flush (the entries are locked since they were read)
  const mapped = new Map(mappings.filter((m) => byId.get(m.unmappedItemId)!.itemId !== m.itemId).map((m) => [m.unmappedItemId, m.itemId]));
  for (const [id, itemId] of mapped) {
    const e = byId.get(id)!;
    Object.assign(e, { status: 'mapped', itemId, mappedAt: now, mappedBy: actorOf(w.actor), version: e.version + 1, updatedAt: now });
  }
  await em.flush();
  // consumers (inventory depletion) see each recalculated sale again, its lines now naming the item
  const bySource = new Map<string, typeof recalculated>();
  for (const t of recalculated) bySource.set(t.source, [...(bySource.get(t.source) ?? []), t]);
  for (const [source, written] of bySource) for (const event of transactionEvents(source, written, 'items_mapped')) w.emit(event);
  // each entry that changed (the project's own public type, issue 41 item 3): the entry as the API returns it, every location it was sold at
  for (const id of mapped.keys()) {
    const e = byId.get(id)!;
    w.emit({ type: 'sales.unmapped_item_mapped', aggregateType: 'sales_unmapped_item', aggregateId: e.id, locationId: e.locationIds[0] ?? null, object: unmappedItemDto(e) as unknown as Record<string, unknown> });
  }
  return { mapped: mappings.map((m) => unmappedItemDto(byId.get(m.unmappedItemId)!, { reachable })), transactionsRecalculated: recalculated.length, ordersRecalculated };
}
