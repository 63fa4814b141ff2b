import type { PosItemRefField } from '@bop/contracts';
import { newId, sqlQuery, type EntityManager, type IngestEvent } from '@bop/shared';
import { entryFromRow, unmappedItemDto } from './dto';

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
export async function lockItemMappings(em: EntityManager, sources: string[], mode: 'shared' | 'exclusive'): Promise<void> {
  const fn = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  for (const source of [...new Set(sources)].sort()) await sqlQuery(em, `select ${fn}(hashtext(?))`, [`sales.item-mapping:${source}`]);
}

/** Among several replica items with the same reference: active before archived, then the latest state. */
const PICK = `order by it."status" = 'active' desc, it."updated_at" desc, it."id" limit 1`;

/**
 * One set-based lookup: per distinct ref, the mapped item of its POS item (when `source` is given),
 * else the replica item by externalId, then SKU, then barcode. Archived items still match: a
 * backfilled or late sale of a discontinued item is still that item.
 */
async function lookup(em: EntityManager, source: string | null, refs: ItemRef[]): Promise<Array<string | null>> {
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
    : `(select m."item_id" from "sales"."unmapped_items" m where m."source" = ? and m."ref_field" = r."ref_field" and m."ref_value" = r."ref_value" and m."status" = 'mapped'),`;
  const rows = await sqlQuery<{ i: number; item_id: string | null }>(
    em,
    `select r."i", coalesce(${mapped}
       (select it."id" from "sales"."items" it where r."ext" is not null and it."external_id" = r."ext" ${PICK}),
       (select it."id" from "sales"."items" it where r."sku" is not null and it."sku" = r."sku" ${PICK}),
       (select it."id" from "sales"."items" it where r."barcode" is not null and it."barcodes" @> array[r."barcode"] ${PICK})
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
export async function resolveItemRefs(em: EntityManager, source: string, refs: ItemRef[]): Promise<Array<string | null>> {
  if (!refs.some((r) => posItemKey(r) !== null)) return refs.map(() => null);
  await lockItemMappings(em, [source], 'shared');
  return lookup(em, source, refs);
}

/** The replica item each ref matches now, ignoring mappings (suggestions for open queue entries). */
export const replicaItemIds = (em: EntityManager, refs: ItemRef[]) => lookup(em, null, refs);

/** One unmatched line seen in a stored record (transaction or order). */
export interface UnmatchedLine extends ItemRef {
  name?: string | null;
}

const SAMPLE_NAMES = 5;

interface Seen {
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

/**
 * Enters the unmatched POS items of one or more stored records into the unmapped-items queue
 * (counts, first/last seen, sample names) and answers the `sales.unmapped_item` events for POS items
 * that were not yet in the queue (once per new POS item). `records` carry what each stored record
 * now has unmatched and what it had before (for exact counts on updates).
 */
export async function recordUnmatched(
  em: EntityManager,
  source: string,
  records: Array<{ recordId: string; locationId: string; seenAt: string; lines: UnmatchedLine[]; before: UnmatchedLine[] | null }>,
): Promise<Array<IngestEvent & { aggregateType: string; aggregateId: string }>> {
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
  const rows = [...seen.values()]
    .filter((s) => s.delta !== 0 || s.now > 0)
    .sort((a, b) => (a.key.refField === b.key.refField ? (a.key.refValue < b.key.refValue ? -1 : 1) : a.key.refField < b.key.refField ? -1 : 1));
  if (rows.length === 0) return [];
  const at = new Date();
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
  const written = await sqlQuery(
    em,
    `with x as (
       select * from jsonb_to_recordset(?::jsonb) as x("id" text, "ref_field" text, "ref_value" text, "ext" text, "sku" text, "barcode" text,
         "delta" int, "n_now" int, "first_seen" timestamptz, "last_seen" timestamptz, "names" text[], "locations" text[])
     )
     insert into "sales"."unmapped_items" as u ("id", "source", "ref_field", "ref_value", "item_external_id", "item_sku", "item_barcode",
       "sample_names", "transaction_count", "first_seen_at", "last_seen_at", "location_ids", "status", "version", "created_at", "updated_at")
     select x."id", ?, x."ref_field", x."ref_value", x."ext", x."sku", x."barcode", x."names", x."n_now", x."first_seen", x."last_seen",
       x."locations", 'open', 1, ?, ?
     from x
     where x."n_now" > 0
        or exists (select 1 from "sales"."unmapped_items" e where e."source" = ? and e."ref_field" = x."ref_field" and e."ref_value" = x."ref_value")
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
