import type { FilterQuery } from '@mikro-orm/core';
import {
  assertLocationInReach,
  reachableLocationIds,
  actorOf,
  decodeCursor,
  insertEvents,
  OutOfReach,
  sqlQuery,
  pageLimit,
  route,
  toPage,
  ValidationError,
  type EntityManager,
  type FieldError,
  type RouteDef,
  type ServiceRuntime,
} from '@bop/shared';
import type { SalesConfig } from '../config';
import { formatMoney } from '../transactions/money';
import type { TransactionRow } from '../transactions/pipeline';
import { transactionEvents } from '../transactions/store';
import { entryFromRow, unmappedItemDto } from './dto';
import { SalesUnmappedItem } from './entities';
import { LINE_REF_FIELD_SQL, LINE_REF_VALUE_SQL, lockItemMappings, replicaItemIds } from './match';

const ids = (values: string[]) => JSON.stringify([...new Set(values)]);

interface Change {
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
const remapLinesSql = (table: '"transactions"' | '"orders"', returning: string) => `with m as materialized (
       select * from jsonb_to_recordset(?::jsonb) as m("source" text, "ref_field" text, "ref_value" text, "item_id" text, "old_item_id" text)
     ),
     hit as materialized (
       select t."id" from "sales".${table} t
       where t."source" in (select m."source" from m)
         and exists (select 1 from m, jsonb_array_elements(t."lines") as l(v) where ${matches('l.v')})
       order by t."source", t."external_id"
       for update of t
     )
     update "sales".${table} t set
       "lines" = (
         select jsonb_agg(case when m."item_id" is null then e.v else jsonb_set(e.v, '{itemId}', to_jsonb(m."item_id")) end order by e.n)
         from jsonb_array_elements(t."lines") with ordinality as e(v, n)
         left join m on ${matches('e.v')}
       ),
       "version" = t."version" + 1,
       "updated_at" = ?
     from hit where t."id" = hit."id"
     returning ${returning}`;

/**
 * spec: ingestion rule 3 — "when someone links it, past sales are recalculated": the stored lines of
 * each mapped POS item (unmatched, or matched through the mapping being corrected) get the item, in
 * one set-based jsonb update. Version and updated_at move (pollers of `updatedSince` see it); the
 * content hash does not (a re-send of the same content stays `unchanged`).
 */
async function recalculate(em: EntityManager, changes: Change[], now: Date): Promise<Array<{ id: string; source: string; externalId: string; version: number; row: TransactionRow }>> {
  const rows = await sqlQuery<Record<string, any>>(
    em,
    remapLinesSql(
      '"transactions"',
      `t."id", t."source", t."external_id", t."location_id",
       to_char(t."occurred_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "occurred_at",
       to_char(t."business_day", 'YYYY-MM-DD') as "business_day",
       t."type", t."status", t."channel", t."register_id", t."employee_external_id",
       t."subtotal"::text as "subtotal", t."tax"::text as "tax", t."total"::text as "total", t."currency", t."refund_of", t."lines", t."tenders", t."version"`,
    ),
    [JSON.stringify(changes), now],
  );
  return rows.map((r) => ({
    id: r.id,
    source: r.source,
    externalId: r.external_id,
    version: Number(r.version),
    row: {
      location_id: r.location_id,
      occurred_at: r.occurred_at,
      business_day: r.business_day,
      type: r.type,
      status: r.status,
      channel: r.channel,
      register_id: r.register_id,
      employee_external_id: r.employee_external_id,
      // numeric(18,6) reads back as "12.500000"
      subtotal: formatMoney(r.subtotal, r.currency),
      tax: formatMoney(r.tax, r.currency),
      total: formatMoney(r.total, r.currency),
      currency: r.currency,
      refund_of: r.refund_of,
      lines: r.lines,
      tenders: r.tenders,
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
async function recalculateOrders(em: EntityManager, changes: Change[], now: Date): Promise<number> {
  const rows = await sqlQuery<{ id: string }>(
    em,
    remapLinesSql('"orders"', 't."id"'),
    [JSON.stringify(changes), now],
  );
  return rows.length;
}

export const itemRoutes = (_svc: ServiceRuntime<SalesConfig>): RouteDef[] => [
  // spec: ingestion rule 3 — the unmapped-items queue; an entry is listed to those reaching any of its locations
  route('GET /sales/unmapped-items', async (ctx) => {
    const { limit, cursor, source, status, locationId } = ctx.query;
    const reachable = reachableLocationIds(ctx.reach());
    if (locationId) assertLocationInReach(ctx.reach(), locationId);
    const where: FilterQuery<SalesUnmappedItem> = { status };
    const after = decodeCursor(cursor);
    if (after) where.id = { $gt: after };
    if (source) where.source = source;
    if (locationId) where.locationIds = { $contains: [locationId] };
    else if (reachable) where.locationIds = { $overlap: reachable };
    const n = pageLimit(limit);
    const rows = await ctx.em.find(SalesUnmappedItem, where, { orderBy: { id: 'asc' }, limit: n + 1 });
    const open = rows.slice(0, n).filter((r) => r.status === 'open');
    const suggested = await replicaItemIds(ctx.em, open.map((r) => ({ itemExternalId: r.itemExternalId, itemSku: r.itemSku, itemBarcode: r.itemBarcode })));
    const suggestion = new Map(open.map((r, i) => [r.id, suggested[i]]));
    return { body: toPage(rows, n, (r) => unmappedItemDto(r, { reachable, suggestedItemId: suggestion.get(r.id) ?? null })) };
  }),

  // spec: ingestion rule 3 — links POS items to items (all or nothing) and recalculates their past sales
  route('POST /sales/unmapped-items:map', async (ctx) => {
    const { mappings } = ctx.body;
    const firstAt = new Map<string, number>();
    const repeated: FieldError[] = [];
    mappings.forEach((m, i) => {
      const first = firstAt.get(m.unmappedItemId);
      if (first !== undefined) repeated.push({ path: `mappings[${i}].unmappedItemId`, message: `Already listed at mappings[${first}].` });
      else firstAt.set(m.unmappedItemId, i);
    });
    if (repeated.length > 0) throw new ValidationError(repeated);
    const actor = actorOf(ctx.principal);
    const now = new Date();
    const body = await ctx.em.transactional(async (em) => {
      const entryIds = ids(mappings.map((m) => m.unmappedItemId));
      const sources = await sqlQuery<{ source: string }>(
        em,
        `select distinct "source" from "sales"."unmapped_items" where "id" = any(array(select jsonb_array_elements_text(?::jsonb)))`,
        [entryIds],
      );
      // waits for batches of these sources that matched lines before this mapping, and holds new ones back
      await lockItemMappings(em, sources.map((s) => s.source), 'exclusive');
      const entries = await sqlQuery<Record<string, any>>(
        em,
        `select * from "sales"."unmapped_items" where "id" = any(array(select jsonb_array_elements_text(?::jsonb))) order by "id" for update`,
        [entryIds],
      );
      const items = await sqlQuery<{ id: string }>(
        em,
        `select "id" from "sales"."items" where "id" = any(array(select jsonb_array_elements_text(?::jsonb)))`,
        [ids(mappings.map((m) => m.itemId))],
      );
      const byId = new Map(entries.map((r) => [r.id as string, entryFromRow(r)]));
      const known = new Set(items.map((r) => r.id));
      const errors: FieldError[] = [];
      mappings.forEach((m, i) => {
        if (!byId.has(m.unmappedItemId)) errors.push({ path: `mappings[${i}].unmappedItemId`, message: `No unmapped item ${m.unmappedItemId}.` });
        if (!known.has(m.itemId)) errors.push({ path: `mappings[${i}].itemId`, message: `No item ${m.itemId}.` });
      });
      if (errors.length > 0) throw new ValidationError(errors);
      // the recalculation touches sales at every location the POS item was sold at
      const reachable = reachableLocationIds(ctx.reach());
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

      const recalculated = await recalculate(em, changes, now);
      // still under the exclusive mapping lock: an order PUT matching lines waits, then sees the mapping
      const ordersRecalculated = await recalculateOrders(em, changes, now);
      const updated = await sqlQuery<Record<string, any>>(
        em,
        `update "sales"."unmapped_items" u set "status" = 'mapped', "item_id" = c."item_id", "mapped_at" = ?, "mapped_by" = ?::jsonb,
           "version" = u."version" + 1, "updated_at" = ?
         from jsonb_to_recordset(?::jsonb) as c("id" text, "item_id" text)
         where u."id" = c."id"
         returning u.*`,
        [now, JSON.stringify(actor), now, JSON.stringify(mappings.filter((m) => byId.get(m.unmappedItemId)!.itemId !== m.itemId).map((m) => ({ id: m.unmappedItemId, item_id: m.itemId })))],
      );
      for (const r of updated) byId.set(r.id, entryFromRow(r));
      // consumers (inventory depletion) see each recalculated sale again, its lines now naming the item
      const bySource = new Map<string, typeof recalculated>();
      for (const t of recalculated) bySource.set(t.source, [...(bySource.get(t.source) ?? []), t]);
      await insertEvents(em, 'sales', [...bySource].flatMap(([source, written]) => transactionEvents(source, written, 'items_mapped')), actor, now);
      return { mapped: mappings.map((m) => unmappedItemDto(byId.get(m.unmappedItemId)!, { reachable })), transactionsRecalculated: recalculated.length, ordersRecalculated };
    });
    return { status: 200, body };
  }),
];
