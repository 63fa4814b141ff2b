import Decimal from 'decimal.js';
import { LockMode } from '@mikro-orm/core';
import type { StockCount, StockCountCreate, StockCountItem, StockCountLine, StockCountStatus } from '@bop/contracts';
import { Conflict, NotFound, ValidationError, actorOf, assertLocationInReach, changedFields, findPage, findPlain, newId, sqlQuery, type EntityManager, type FieldError, type ListPage, type PageRequest, type Work, replicaLocationErrors } from '@bop/shared';
import { InventoryStorageArea } from '../items/entities';
import { resolveLines } from '../items/lines-store';
import { dec, formatQuantity } from '../ledger/quantity';
import { lockLevels, postMovements, type MovementInput } from '../ledger/store';
import { countedAtOf, countedTotals, duplicateLineErrors, itemFigures, transitionRefusal, type CountedItem } from './count-rules';
import { countDto } from './dto';
import { InventoryStockCount } from './entities';

interface LedgerPoint {
  /** on hand at the instant: Σ of the movements with occurredAt ≤ it */
  expected: Decimal;
  /** average cost at the location, else the item's standard cost */
  unitCost: string | null;
}

const pointKey = (countId: string, itemId: string) => `${countId}\u0000${itemId}`;

/**
 * The ledger at each count's instant, for each of its items, in one statement (one snapshot). The
 * level's on hand is the Σ of all the item's movements at the location (ledger/store.ts keeps it so),
 * so on hand at an instant is on hand minus what moved after it: a recent count reads a few rows,
 * not the item's whole history.
 */
export async function ledgerAt(w: Work, wanted: Array<{ countId: string; itemId: string; locationId: string; at: Date }>): Promise<Map<string, LedgerPoint>> {
  if (wanted.length === 0) return new Map();
  // raw SQL (bench:sql inventory.ledger-at): 23,432 µs against 101,116 through the ORM (4.3×: no sum in the ORM: the movements since the count are loaded and summed in code)
  // one aggregation over the ledger for all (count, item) pairs, in one snapshot
  const rows = await sqlQuery<{ count_id: string; item_id: string; expected: string; unit_cost: string | null }>(
    w.em,
    `with w as (
       select x->>0 as count_id, x->>1 as item_id, x->>2 as location_id, (x->>3)::timestamptz as at from jsonb_array_elements(?::jsonb) as x
     )
     select w.count_id, w.item_id,
       (coalesce(l."on_hand", 0) - coalesce((select sum(m."quantity") from "${w.schema}"."stock_movements" m
          where m."item_id" = w.item_id and m."location_id" = w.location_id and m."occurred_at" > w.at), 0))::text as expected,
       coalesce(l."average_cost", i."cost")::text as unit_cost
     from w join "${w.schema}"."items" i on i."id" = w.item_id
     left join "${w.schema}"."stock_levels" l on l."item_id" = w.item_id and l."location_id" = w.location_id`,
    [JSON.stringify(wanted.map((x) => [x.countId, x.itemId, x.locationId, x.at.toISOString()]))],
  );
  return new Map(rows.map((r) => [pointKey(r.count_id, r.item_id), { expected: dec(r.expected), unitCost: r.unit_cost }]));
}

/** The figures of counts as they stand in the ledger now (open counts; and cancelled ones when cancelling). */
async function liveItems(w: Work, counts: InventoryStockCount[]): Promise<Map<string, StockCountItem[]>> {
  const totals = new Map(counts.map((c) => [c.id, countedTotals(c.lines)]));
  const points = await ledgerAt(
    w,
    counts.flatMap((c) => totals.get(c.id)!.map((t) => ({ countId: c.id, itemId: t.itemId, locationId: c.locationId, at: c.countedAt }))),
  );
  return new Map(
    counts.map((c) => [
      c.id,
      totals.get(c.id)!.map((t) => {
        const p = points.get(pointKey(c.id, t.itemId)) ?? { expected: new Decimal(0), unitCost: null };
        return itemFigures(t.itemId, t.counted, p.expected, p.unitCost);
      }),
    ]),
  );
}

/** Counts as the API returns them: open ones with their figures computed now, final ones as frozen. */
export async function countDtos(w: Work, counts: InventoryStockCount[]): Promise<StockCount[]> {
  // a final count always has its results (check constraint stock_counts_final_ck)
  const live = await liveItems(w, counts.filter((c) => !c.results));
  return counts.map((c) => countDto(c, c.results ?? live.get(c.id)!));
}

/** Storage areas named by lines: each must exist, be active and belong to the count's location. */
async function storageAreaErrors(em: EntityManager, locationId: string, lines: StockCountCreate['lines']): Promise<FieldError[]> {
  const ids = [...new Set(lines.flatMap((l) => (l.storageAreaId ? [l.storageAreaId] : [])))];
  if (ids.length === 0) return [];
  const rows = await findPlain(em, InventoryStorageArea, { id: { $in: ids } });
  const areas = new Map(rows.map((r) => [r.id, r]));
  const errors: FieldError[] = [];
  lines.forEach((l, i) => {
    if (!l.storageAreaId) return;
    const a = areas.get(l.storageAreaId);
    const path = `lines[${i}].storageAreaId`;
    if (!a) errors.push({ path, message: `No storage area ${l.storageAreaId}.` });
    else if (a.locationId !== locationId) errors.push({ path, message: `Storage area ${a.id} belongs to location ${a.locationId}, not to ${locationId}.` });
    else if (a.status !== 'active') errors.push({ path, message: `Storage area ${a.id} is ${a.status}.` });
  });
  return errors;
}

const countEvent = (type: string, dto: StockCount, previous?: Record<string, unknown>) => ({
  type,
  aggregateType: 'stock_count',
  aggregateId: dto.id,
  locationId: dto.locationId,
  object: dto as unknown as Record<string, unknown>,
  ...(previous ? { previous } : {}),
});

export interface CountFilter {
  /** the kit's location filter of the reach (`locationFilter`); undefined: every location */
  inLocations: string | { $in: string[] } | undefined;
  status?: StockCountStatus;
  from?: string;
}

/** A page of counts in id order (`limit + 1` rows: the caller's toPage tells whether more follow). */
export async function listCounts(w: Work, f: CountFilter, page: PageRequest & { updatedSince?: string }): Promise<ListPage<InventoryStockCount>> {
  return findPage(w.em, InventoryStockCount, [f.inLocations && { locationId: f.inLocations }, f.status && { status: f.status }, f.from && { countedAt: { $gte: new Date(f.from) } }], page);
}

export const findCount = (w: Work, id: string): Promise<InventoryStockCount | null> => w.em.findOne(InventoryStockCount, { id });

/**
 * `POST /stock-counts`: validates everything at once (location, countedAt, lines, storage areas,
 * items and units — archived items cannot be counted) and stores an `open` count with
 * `inventory.stock_count.created` (internal: the catalogue names only `stock_count.posted`).
 */
export async function createCount(w: Work, body: StockCountCreate): Promise<StockCount> {
  const { em } = w;
  const countedAt = countedAtOf(body.countedAt, w.now);
  const errors: FieldError[] = [
    ...(await replicaLocationErrors(w, [{ id: body.locationId, path: 'locationId', takes: 'counts' }])),
    ...(countedAt.error ? [countedAt.error] : []),
    ...duplicateLineErrors(body.lines),
    ...(await storageAreaErrors(em, body.locationId, body.lines)),
  ];
  const resolved = await resolveLines(w, body.lines).catch((err: unknown) => {
    if (!(err instanceof ValidationError)) throw err;
    errors.push(...(err.errors ?? []));
    return null;
  });
  if (errors.length > 0 || !resolved) throw new ValidationError(errors);

  const lines: StockCountLine[] = body.lines.map((l, i) => ({
    itemId: l.itemId,
    storageAreaId: l.storageAreaId ?? null,
    quantity: formatQuantity(l.quantity),
    unitId: l.unitId ?? null,
    baseQuantity: formatQuantity(resolved[i].base),
  }));
  const count = em.create(InventoryStockCount, {
    id: newId('stockCount'),
    locationId: body.locationId,
    status: 'open',
    countedAt: countedAt.at,
    lines,
    note: body.note ?? null,
    results: null,
    cancelReason: null,
    postedAt: null,
    cancelledAt: null,
    version: 1,
    createdAt: w.now,
    updatedAt: w.now,
    actor: actorOf(w.actor),
  });
  await em.flush();
  const [dto] = await countDtos(w, [count]);
  w.emit(countEvent('inventory.stock_count.created', dto));
  // the project's own public type, next to the internal one (whose envelope stays as it was)
  w.emit(countEvent('stock_count.created', dto));
  return dto;
}

/** The count locked for a transition, in reach, at the If-Match version, still open. */
async function lockOpenCount(w: Work, id: string, action: 'post' | 'cancel'): Promise<InventoryStockCount> {
  const count = await w.em.findOne(InventoryStockCount, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!count) throw new NotFound('stock count', id);
  assertLocationInReach(w.reach(), count.locationId);
  w.checkVersion(count.version);
  const refusal = transitionRefusal({ id: count.id, status: count.status as StockCountStatus, postedAt: count.postedAt ?? null, cancelledAt: count.cancelledAt ?? null }, action);
  if (refusal) throw new Conflict(refusal);
  return count;
}

/**
 * A count may not be posted under a later posted count of one of its items: that count set on hand
 * at its instant, and this earlier variance would shift it. Runs with the items' levels locked, so a
 * concurrent post of a later count is seen once it commits.
 */
async function refuseUnderLaterCounts(em: EntityManager, count: InventoryStockCount, totals: CountedItem[]): Promise<void> {
  const later = await findPlain(em, InventoryStockCount, { locationId: count.locationId, status: 'posted', countedAt: { $gt: count.countedAt } }, { orderBy: { countedAt: 'desc' } });
  const errors: FieldError[] = [];
  for (const t of totals) {
    const by = later.find((c) => c.lines.some((l) => l.itemId === t.itemId));
    if (by) errors.push({ path: `lines[${t.firstLine}].itemId`, message: `Item ${t.itemId} was counted later, at ${new Date(by.countedAt).toISOString()}, by posted count ${by.id}.` });
  }
  if (errors.length > 0) {
    throw new Conflict(`Stock count ${count.id} (counted at ${count.countedAt.toISOString()}) is older than posted counts of some of its items; posting it would change the stock those counts established. Cancel it, or count again.`, errors);
  }
}

/**
 * `POST /stock-counts/{id}:post`: one `count_variance` movement per item whose variance is not zero,
 * dated `countedAt` (on hand at that instant becomes what was counted; later movements stay on top),
 * the figures frozen, status `posted`, `stock_count.posted`. Items not counted are not touched.
 */
export async function postCount(w: Work, id: string): Promise<StockCount> {
  const { em } = w;
  const count = await lockOpenCount(w, id, 'post');
  const totals = countedTotals(count.lines);
  // the levels first: no movement of these items can slip in between reading the ledger and posting
  await lockLevels(w, totals.map((t) => ({ itemId: t.itemId, locationId: count.locationId })));
  await refuseUnderLaterCounts(em, count, totals);
  const points = await ledgerAt(w, totals.map((t) => ({ countId: count.id, itemId: t.itemId, locationId: count.locationId, at: count.countedAt })));
  const figures = totals.map((t) => {
    const p = points.get(pointKey(count.id, t.itemId)) ?? { expected: new Decimal(0), unitCost: null };
    return { total: t, expected: p.expected, unitCost: p.unitCost, variance: t.counted.minus(p.expected) };
  });
  const inputs: MovementInput[] = figures
    .filter((f) => !f.variance.isZero())
    .map((f) => ({
      itemId: f.total.itemId,
      locationId: count.locationId,
      type: 'count_variance',
      quantity: f.variance,
      cause: { type: 'stock_count', id: count.id },
      occurredAt: count.countedAt,
    }));
  const posted = await postMovements(w, inputs);
  const movementOf = new Map(posted.movements.map((m) => [m.itemId, m]));
  const results = figures.map((f) => {
    const m = movementOf.get(f.total.itemId);
    // a variance's value is its movement's: the ledger's cost at posting
    return itemFigures(f.total.itemId, f.total.counted, f.expected, m ? m.unitCost : f.unitCost, m?.id ?? null);
  });

  const before = countDto(count, figures.map((f) => itemFigures(f.total.itemId, f.total.counted, f.expected, f.unitCost)));
  Object.assign(count, { status: 'posted', results, postedAt: w.now, version: count.version + 1, updatedAt: w.now });
  await em.flush();
  const after = countDto(count, results);
  w.emit(countEvent('stock_count.posted', after, changedFields(before, after)));
  return after;
}

/** `POST /stock-counts/{id}:cancel`: status `cancelled`, the figures as they stand frozen, stock unchanged; `inventory.stock_count.cancelled` (internal) and `stock_count.cancelled` (public). */
export async function cancelCount(w: Work, id: string, reason: string | null): Promise<StockCount> {
  const { em } = w;
  const count = await lockOpenCount(w, id, 'cancel');
  const items = (await liveItems(w, [count])).get(count.id)!;
  const before = countDto(count, items);
  Object.assign(count, { status: 'cancelled', results: items, cancelReason: reason, cancelledAt: w.now, version: count.version + 1, updatedAt: w.now });
  await em.flush();
  const after = countDto(count, items);
  w.emit(countEvent('inventory.stock_count.cancelled', after, changedFields(before, after)));
  w.emit(countEvent('stock_count.cancelled', after, changedFields(before, after)));
  return after;
}
