import Decimal from 'decimal.js';
import { defineEntity, LockMode, p, QueryOrder } from '@mikro-orm/core';
import { actorOf, Conflict, findPlain, resolveLocations, ValidationError, type ServiceDefinition, type Work } from '@bop/shared';
import { inventoryService } from '@svc/inventory';
import { ledgerAt } from '@svc/inventory/dist/counts/store';
import { assertParent } from '@svc/inventory/dist/items/category-store';
import { InventoryItem, InventoryItemCategory, InventoryUnitOfMeasure } from '@svc/inventory/dist/items/entities';
import { claimedIdentifiers, type ItemFields } from '@svc/inventory/dist/items/item-fields';
import { assertIdentifiersFree } from '@svc/inventory/dist/items/store';
import { assertNameFree } from '@svc/inventory/dist/items/unit-store';
import { dec, formatNullable, formatQuantity, round6 } from '@svc/inventory/dist/ledger/quantity';
import { insertMovementRows, lockLevels, stockLevelDto, updateLevelRows, type Level } from '@svc/inventory/dist/ledger/store';
import { replenishment } from '@svc/inventory/dist/purchasing/store';
import { lockDepletions, updateDepletions, withoutNothingToDo, type DepletionUpdate, type Entry } from '@svc/inventory/dist/recipes/depletion-store';
import { UsageRecipeRow } from '@svc/inventory/dist/recipes/entities';
import { InventoryLocation, InventoryStockLevel, InventoryStockMovement } from '@svc/inventory/dist/stock/entities';
import { listLevels, saveLevelConfiguration } from '@svc/inventory/dist/stock/levels-store';
import type { SqlCase } from './case';

/**
 * The depletion rows (sale_depletions) have no entity in the service: the ORM forms of their statements
 * map them here, on the service's own ORM.
 */
const StockLevelRow = InventoryStockLevel;
type StockLevelRow = InventoryStockLevel;
const StockMovementRow = InventoryStockMovement;
type StockMovementRow = InventoryStockMovement;

const SaleDepletionRow = defineEntity({
  name: 'BenchSaleDepletion',
  tableName: 'sale_depletions',
  properties: {
    transactionId: p.string().primary(),
    locationId: p.string(),
    version: p.integer(),
    applied: p.json<Record<string, string>>(),
    updatedAt: p.datetime(),
  },
});

/** inventory with the entities above (one database for all of inventory's cases) */
const service: ServiceDefinition<any> = { ...inventoryService, entities: [...inventoryService.entities, SaleDepletionRow] };

// ---- the data: a busy company (200 locations, a catalogue of 500 items), one busy kitchen (HOME) ----
const pad = (i: number) => String(i).padStart(4, '0');
const LOCATIONS = 200;
const loc = (i: number) => `loc_bench${pad(i)}`;
const HOME = loc(0);
const INGREDIENTS = 30;
const MENU = 20;
const OTHERS = 450;
const ing = (i: number) => `itm_ing${pad(i)}`;
const SAUCE = 'itm_sauce';
const menu = (i: number) => `itm_menu${pad(i)}`;
const other = (i: number) => `itm_oth${pad(i)}`;
/** the first 10 others are combos of two menu items (a recipe chain: ingredient ← sauce ← menu ← combo) */
const COMBOS = 10;
const T0 = Date.UTC(2026, 9, 1, 10);
const DAY = 86_400_000;
const DAYS = 30;
/** sales movements a day at HOME (1,000 sales of 3 menu lines, ~4 ingredients each), and at each other location */
const HOME_PER_DAY = 4000;
const OTHER_LOCATION_MOVEMENTS = 200;
const WASTE_DOCS = 50;
const TRANSACTIONS_PER_DAY = 1000;
const baseUnitOf = (i: number) => (['each', 'g', 'ml'] as const)[i % 3];
const costText = (c: string) => new Decimal(c).toFixed(6);
const ACTOR = { type: 'system', id: null };

const catId = (path: number[]) => `cat_bench_${path.join('_')}`;
/** category tree: 5 roots × 5 × 5, and a chain of 2 more under the first leaf (depth 5) */
function categories(at: Date) {
  const out: Array<{ id: string; name: string; parentId: string | null; status: 'active'; version: number; createdAt: Date; updatedAt: Date }> = [];
  const add = (path: number[], parent: string | null) => out.push({ id: catId(path), name: `Category ${path.join('.')}`, parentId: parent, status: 'active', version: 1, createdAt: at, updatedAt: at });
  for (let a = 0; a < 5; a++) {
    add([a], null);
    for (let b = 0; b < 5; b++) {
      add([a, b], catId([a]));
      for (let c = 0; c < 5; c++) add([a, b, c], catId([a, b]));
    }
  }
  add([0, 0, 0, 0], catId([0, 0, 0]));
  add([0, 0, 0, 0, 0], catId([0, 0, 0, 0]));
  return out;
}
const DEEP_CATEGORY = catId([0, 0, 0, 0, 0]);

function items(at: Date) {
  const base = { archivedAt: null, version: 1, createdAt: at, updatedAt: at };
  const out: Array<Record<string, unknown>> = [];
  for (let i = 0; i < INGREDIENTS; i++) out.push({ ...base, id: ing(i), externalId: `ext-ing-${i}`, sku: `ING-${i}`, barcodes: [`100000${pad(i)}`], name: `Ingredient ${i}`, categoryId: catId([1, i % 5, 0]), baseUnit: 'g', cost: '0.01', status: 'active' });
  out.push({ ...base, id: SAUCE, externalId: null, sku: null, barcodes: [], name: 'Sauce', categoryId: catId([1, 0, 1]), baseUnit: 'g', cost: null, status: 'active' });
  for (let m = 0; m < MENU; m++) out.push({ ...base, id: menu(m), externalId: `ext-menu-${m}`, sku: `MENU-${m}`, barcodes: [`200000${pad(m)}`], name: `Menu ${m}`, categoryId: catId([2, m % 5, 0]), baseUnit: 'each', cost: null, status: 'active' });
  for (let o = 0; o < OTHERS; o++) {
    const archived = o % 25 === 24;
    out.push({
      ...base,
      id: other(o),
      externalId: `ext-oth-${o}`,
      sku: `SKU-${o}`,
      barcodes: [`300000${pad(o)}`, `310000${pad(o)}`],
      name: `Item ${o}`,
      categoryId: catId([o % 5, (o >> 2) % 5, (o >> 4) % 5]),
      baseUnit: o < COMBOS ? 'each' : baseUnitOf(o),
      cost: costText(String(0.05 + (o % 40) * 0.25)),
      status: archived ? 'archived' : 'active',
      archivedAt: archived ? at : null,
    });
  }
  return out;
}
const ALL_ITEMS = [...Array.from({ length: INGREDIENTS }, (_, i) => ing(i)), SAUCE, ...Array.from({ length: MENU }, (_, m) => menu(m)), ...Array.from({ length: OTHERS }, (_, o) => other(o))];
const unitBaseOf = (id: string) => (id.startsWith('itm_ing') || id === SAUCE ? 'g' : id.startsWith('itm_menu') ? 'each' : Number(id.slice(7)) < COMBOS ? 'each' : baseUnitOf(Number(id.slice(7))));

const COMPANY_UNITS: Array<[string, 'each' | 'g' | 'ml', string]> = [
  ['Case of 6', 'each', '6'], ['dozen', 'each', '12'], ['Case of 24', 'each', '24'],
  ['kg', 'g', '1000'], ['lb', 'g', '453.592'], ['oz', 'g', '28.349523'], ['Bag 5 kg', 'g', '5000'], ['Pound', 'g', '453.592'],
  ['l', 'ml', '1000'], ['Bottle 750 ml', 'ml', '750'], ['gal', 'ml', '3785.411784'], ['cup', 'ml', '236.588'],
];
function units(at: Date) {
  const base = { version: 1, createdAt: at, updatedAt: at };
  const out = COMPANY_UNITS.map(([name, baseUnit, factor], i) => ({ ...base, id: `uom_bench_c${pad(i)}`, name, baseUnit, factor, itemId: null as string | null }));
  // every other catalogue item (from 50 on) has two units of its own
  for (let o = 50; o < OTHERS; o += 2) {
    out.push({ ...base, id: `uom_bench_a${pad(o)}`, name: `Case of ${10 + (o % 7)}`, baseUnit: unitBaseOf(other(o)), factor: String(10 + (o % 7)), itemId: other(o) });
    out.push({ ...base, id: `uom_bench_b${pad(o)}`, name: 'pack', baseUnit: unitBaseOf(other(o)), factor: '6', itemId: other(o) });
  }
  return out;
}

const component = (itemId: string, quantity: string, yieldText = '1') => ({ itemId, quantity, unitId: null, yield: yieldText, baseQuantity: quantity });
function recipes(at: Date) {
  const base = { version: 1, createdAt: at, updatedAt: at };
  const out = [{ ...base, itemId: SAUCE, components: [component(ing(0), '0.6'), component(ing(1), '0.4', '0.8')] }];
  for (let m = 0; m < MENU; m++) out.push({ ...base, itemId: menu(m), components: [component(ing(2 + (m % 28)), '120'), component(ing(2 + ((m + 9) % 28)), '30', '0.9'), component(SAUCE, '25')] });
  for (let c = 0; c < COMBOS; c++) out.push({ ...base, itemId: other(c), components: [component(menu(c), '1'), component(menu(c + 10), '1')] });
  // prepared items of the catalogue (10–159) made of two ingredients each
  for (let o = COMBOS; o < 160; o++) if (unitBaseOf(other(o)) !== 'each') out.push({ ...base, itemId: other(o), components: [component(ing(o % INGREDIENTS), '50'), component(ing((o * 7) % INGREDIENTS), '10')] });
  return out;
}

/** the items each location other than HOME stocks: ingredients, the sauce, menu items, and 69 others */
const STOCKED_ELSEWHERE = [...ALL_ITEMS.slice(0, INGREDIENTS + 1 + MENU), ...Array.from({ length: 69 }, (_, o) => other(COMBOS + o))];
function levels(): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  const level = (itemId: string, locationId: string, n: number) => {
    const ingredient = itemId.startsWith('itm_ing');
    const onHand = ingredient ? '25000' : String(10 + (n % 90));
    const avg = ingredient ? '0.01' : itemId === SAUCE || itemId.startsWith('itm_menu') ? null : '1.25';
    out.push({
      itemId,
      locationId,
      onHand,
      reserved: n % 17 === 0 ? '2' : '0',
      averageCost: avg,
      stockValue: avg === null ? null : round6(dec(onHand).times(avg)).toFixed(),
      parLevel: ingredient ? '40000' : n % 5 === 0 ? '120' : null,
      reorderPoint: ingredient ? '20000' : n % 5 === 0 ? '30' : null,
      version: 1 + (n % 9),
      updatedAt: new Date(T0 + DAYS * DAY + n * 1000),
    });
  };
  ALL_ITEMS.forEach((id, n) => level(id, HOME, n));
  for (let l = 1; l < LOCATIONS; l++) STOCKED_ELSEWHERE.forEach((id, n) => level(id, loc(l), l * 1000 + n));
  return out;
}

const movementId = (kind: string, n: number) => `smv_bench_${kind}${String(n).padStart(8, '0')}`;
const txnId = (day: number, k: number) => `txn_bench_${pad(day)}_${pad(k)}`;
const wasteId = (i: number) => `wst_bench${pad(i)}`;
function movementRow(id: string, itemId: string, locationId: string, type: string, quantity: string, cause: [string, string], at: Date, extra: Record<string, unknown> = {}) {
  return {
    id, itemId, locationId, type, quantity, reservedChange: '0', onHandAfter: '25000', reservedAfter: '0', unitCost: '0.01', value: round6(dec(quantity).times('0.01')).toFixed(),
    causeType: cause[0], causeId: cause[1], reason: null, note: null, businessDay: at.toISOString().slice(0, 10), occurredAt: at, createdAt: at, actor: ACTOR, ...extra,
  };
}
/** HOME: DAYS days of sales (HOME_PER_DAY movements a day over the ingredients), and the other locations' few */
function* movementChunks(size: number): Generator<Array<Record<string, unknown>>> {
  let chunk: Array<Record<string, unknown>> = [];
  let n = 0;
  const push = (row: Record<string, unknown>) => {
    chunk.push(row);
    if (chunk.length === size) return true;
    return false;
  };
  for (let d = 0; d < DAYS; d++) {
    for (let k = 0; k < HOME_PER_DAY; k++) {
      const at = new Date(T0 + d * DAY + Math.floor((k * 14 * 3_600_000) / HOME_PER_DAY));
      if (push(movementRow(movementId('s', n++), ing(k % INGREDIENTS), HOME, 'sale', '-25', ['sales_transaction', txnId(d, k >> 2)], at))) {
        yield chunk;
        chunk = [];
      }
    }
  }
  for (let i = 0; i < WASTE_DOCS; i++) {
    const at = new Date(T0 + (i % DAYS) * DAY + 20 * 3_600_000);
    for (let j = 0; j < 3; j++) {
      if (push(movementRow(movementId('w', n++), ing((i + j * 7) % INGREDIENTS), HOME, 'waste', '-150', ['waste_record', wasteId(i)], at, { reason: 'spoiled' }))) {
        yield chunk;
        chunk = [];
      }
    }
  }
  for (let l = 1; l < LOCATIONS; l++) {
    for (let k = 0; k < OTHER_LOCATION_MOVEMENTS; k++) {
      const at = new Date(T0 + (k % DAYS) * DAY + k * 60_000);
      if (push(movementRow(movementId('o', n++), ing(k % INGREDIENTS), loc(l), 'sale', '-20', ['sales_transaction', `txn_bench_l${pad(l)}_${pad(k)}`], at))) {
        yield chunk;
        chunk = [];
      }
    }
  }
  if (chunk.length > 0) yield chunk;
}

/** a bus batch of sales at HOME: 1,000 transactions of 3 menu lines (entries as applyRecordedSales builds them) */
function salesBatch(day: number, itemlessEvery = 0): Entry[] {
  return Array.from({ length: TRANSACTIONS_PER_DAY }, (_, k) => {
    const itemless = itemlessEvery > 0 && k % itemlessEvery === 0;
    return {
      id: txnId(day, k),
      version: 1,
      status: 'completed',
      occurredAt: new Date(T0 + day * DAY + k * 50_000).toISOString(),
      lines: [0, 7, 13].map((j) => ({ itemId: itemless ? null : menu((k + j) % MENU), quantity: '1' })),
      locationId: HOME,
      reason: null,
    } as unknown as Entry;
  });
}

/** every case's data, written once (the first case run seeds; all of inventory's cases share one database) */
let seeded = false;
async function seed(write: <T>(fn: (w: Work) => Promise<T>) => Promise<T>): Promise<void> {
  if (seeded) return;
  seeded = true;
  const at = new Date(T0 - 90 * DAY);
  await write(async (w) => {
    await w.em.insertMany(InventoryLocation, Array.from({ length: LOCATIONS }, (_, i) => ({ id: loc(i), externalId: `LOC-${i}`, timezone: i % 2 ? 'America/Chicago' : 'America/New_York', businessDayCutoff: '04:00', status: 'active', orgUnitId: null, updatedAt: at })));
    await w.em.insertMany(InventoryItemCategory, categories(at));
    await w.em.insertMany(InventoryItem, items(at) as never[]);
    await w.em.insertMany(InventoryUnitOfMeasure, units(at) as never[]);
    await w.em.insertMany(UsageRecipeRow, recipes(at));
  });
  const lv = levels();
  for (let i = 0; i < lv.length; i += 4000) await write((w) => w.em.insertMany(StockLevelRow, lv.slice(i, i + 4000) as never[]));
  for (const chunk of movementChunks(3000)) await write((w) => w.em.insertMany(StockMovementRow, chunk as never[]));
  // DAYS days of HOME's sales already depleted (the last day's are re-applied by a newer version in update-depletions)
  for (let d = 0; d < DAYS; d++) {
    const rows = salesBatch(d).map((t) => ({ transactionId: t.id, locationId: HOME, version: 1, applied: { [ing(0)]: '-15', [ing(1)]: '-12.5', [ing(2)]: '-120' }, updatedAt: new Date(t.occurredAt) }));
    await write((w) => w.em.insertMany(SaleDepletionRow, rows));
  }
}

// ---- helpers of the ORM forms ----

/** a Level as plain values (both forms' answers compared as these) */
const levelValues = (l: Level) => ({
  itemId: l.itemId, locationId: l.locationId, onHand: l.onHand.toFixed(), reserved: l.reserved.toFixed(), averageCost: l.averageCost?.toFixed() ?? null, value: l.value?.toFixed() ?? null,
  parLevel: l.parLevel?.toFixed() ?? null, reorderPoint: l.reorderPoint?.toFixed() ?? null, version: l.version, updatedAt: l.updatedAt.toISOString(), itemCost: l.itemCost?.toFixed() ?? null,
});
const nullableDec = (v: string | null | undefined) => (v === null || v === undefined ? null : dec(v));
/** what ledger/store.ts's levelOf makes of a level row and its item's cost */
const levelOfEntity = (r: StockLevelRow, itemCost: string | null): Level => ({
  itemId: r.itemId,
  locationId: r.locationId,
  onHand: dec(r.onHand),
  reserved: dec(r.reserved),
  averageCost: nullableDec(r.averageCost),
  value: r.stockValue !== null && r.stockValue !== undefined ? dec(r.stockValue) : r.averageCost === null || r.averageCost === undefined ? null : round6(dec(r.onHand).times(r.averageCost)),
  parLevel: nullableDec(r.parLevel),
  reorderPoint: nullableDec(r.reorderPoint),
  version: r.version,
  updatedAt: new Date(r.updatedAt),
  itemCost: nullableDec(itemCost),
});
const sortedPairs = (pairs: Array<{ itemId: string; locationId: string }>) =>
  [...new Map(pairs.map((x) => [`${x.itemId}\u0000${x.locationId}`, x])).values()].sort((a, b) => (a.itemId < b.itemId ? -1 : a.itemId > b.itemId ? 1 : a.locationId < b.locationId ? -1 : a.locationId > b.locationId ? 1 : 0));
/** equal as JSON once both arrays are sorted (a statement without an order by) */
const sameSorted = (a: unknown, b: unknown) => JSON.stringify([...(a as unknown[])].map((x) => JSON.stringify(x)).sort()) === JSON.stringify([...(b as unknown[])].map((x) => JSON.stringify(x)).sort());
/** Σ quantity by item */
function sumBy(rows: Array<{ itemId: string; quantity: string }>): Map<string, Decimal> {
  const out = new Map<string, Decimal>();
  for (const r of rows) out.set(r.itemId, (out.get(r.itemId) ?? new Decimal(0)).plus(r.quantity));
  return out;
}
const outcome = async (fn: () => Promise<unknown>) => {
  try {
    return { ok: await fn() };
  } catch (err) {
    return { refused: (err as Error).message, errors: (err as { errors?: unknown }).errors ?? null };
  }
};

// the inputs each case meets
/** a sales batch at HOME touches every ingredient's level there */
const BATCH_PAIRS = Array.from({ length: INGREDIENTS }, (_, i) => ({ itemId: ing(i), locationId: HOME }));
/** a sales batch's posting: 1,000 transactions of 3 menu lines, 8 ingredients each (2 of a line's 4 are the sauce's, shared) */
const POSTING = Array.from({ length: TRANSACTIONS_PER_DAY * 8 }, (_, n) => {
  const at = new Date(T0 + DAYS * DAY + Math.floor(n / 8) * 50_000).toISOString();
  return [`smv_bench_p${String(n).padStart(8, '0')}`, ing(n % INGREDIENTS), HOME, 'sale', '-12.5', '0', String(25000 - n), '0', '0.01', '-0.125', 'sales_transaction', txnId(DAYS, Math.floor(n / 8)), null, null, at.slice(0, 10), at];
});
const COUNT_ITEMS = [...Array.from({ length: INGREDIENTS }, (_, i) => ing(i)), ...Array.from({ length: 90 }, (_, o) => other(COMBOS + o))];
const COUNTED_AT = new Date(T0 + (DAYS - 2) * DAY + 22 * 3_600_000);

export const inventoryCases: SqlCase[] = [
  // the reads first: the writes' rolled-back rows leave dead index entries behind them
  {
    name: 'inventory.ledger-at',
    what: 'on hand at an open count\'s instant (2 days ago) of its 120 items at a busy kitchen',
    service,
    seed,
    raw: async (w) => [...(await ledgerAt(w, COUNT_ITEMS.map((itemId) => ({ countId: 'cnt_bench', itemId, locationId: HOME, at: COUNTED_AT }))))].map(([k, v]) => [k, v.expected.toFixed(), v.unitCost]),
    async orm(w) {
      // no aggregate in the ORM but count (a sum is a raw fragment): the movements after the instant, summed in code
      const moved = await w.em
        .createQueryBuilder(StockMovementRow, 'm')
        .select(['itemId', 'quantity'])
        .where({ locationId: HOME, itemId: { $in: COUNT_ITEMS }, occurredAt: { $gt: COUNTED_AT } })
        .execute<Array<{ itemId: string; quantity: string }>>('all', true);
      const movedBy = sumBy(moved);
      const lv = new Map((await findPlain(w.em, StockLevelRow, { locationId: HOME, itemId: { $in: COUNT_ITEMS } })).map((l) => [l.itemId, l]));
      const its = await findPlain(w.em, InventoryItem, { id: { $in: COUNT_ITEMS } });
      const cost = new Map(its.map((i) => [i.id, i.cost ?? null]));
      return COUNT_ITEMS.filter((id) => cost.has(id)).map((id) => {
        const l = lv.get(id);
        return [`cnt_bench\u0000${id}`, dec(l?.onHand ?? 0).minus(movedBy.get(id) ?? 0).toFixed(), l?.averageCost ?? cost.get(id) ?? null];
      });
    },
    same: sameSorted,
  },
  {
    name: 'inventory.category-loop',
    what: 'moving a category under one 5 levels deep: is the new parent below it? (157 categories)',
    service,
    seed,
    raw: (w) => outcome(() => assertParent(w, DEEP_CATEGORY, catId([3, 1]))),
    orm: (w) =>
      outcome(async () => {
        const parentId = DEEP_CATEGORY;
        const selfId = catId([3, 1]);
        const [parent] = await findPlain(w.em, InventoryItemCategory, { id: parentId });
        if (!parent) throw new ValidationError([{ path: 'parentId', message: `No item category ${parentId}.` }]);
        if (parent.status !== 'active') throw new ValidationError([{ path: 'parentId', message: `Item category ${parentId} is archived.` }]);
        // up the tree, one query a level
        const seen = new Set<string>();
        for (let at: InventoryItemCategory | undefined = parent; at && !seen.has(at.id); ) {
          if (at.id === selfId) throw new ValidationError([{ path: 'parentId', message: `Category ${parentId} is this category or one of its subcategories; moving under it would make a cycle.` }]);
          seen.add(at.id);
          at = at.parentId ? (await findPlain(w.em, InventoryItemCategory, { id: at.parentId }))[0] : undefined;
        }
      }),
  },
  {
    name: 'inventory.identifiers-free',
    what: 'an item\'s externalId, SKU and 2 barcodes against the catalogue\'s (501 items; the SKU and a barcode held)',
    service,
    seed,
    raw: (w) => outcome(() => assertIdentifiersFree(w, NEW_ITEM, null, null)),
    orm: (w) =>
      outcome(async () => {
        const claimed = claimedIdentifiers(NEW_ITEM, null);
        const or: object[] = [];
        if (claimed.externalId !== null) or.push({ externalId: claimed.externalId });
        if (claimed.sku !== null) or.push({ sku: claimed.sku, status: 'active' });
        if (claimed.barcodes.length > 0) or.push({ barcodes: { $overlap: claimed.barcodes.map((b) => b.barcode) }, status: 'active' });
        if (or.length === 0) return;
        // one statement (one snapshot), as the union: the active items' barcodes are item_barcodes' rows
        const held = await findPlain(w.em, InventoryItem, { $or: or, id: { $ne: '' } } as never);
        const errors: Array<{ path: string; message: string }> = [];
        const details: string[] = [];
        const ext = held.find((h) => claimed.externalId !== null && h.externalId === claimed.externalId)?.id;
        if (ext) {
          errors.push({ path: 'externalId', message: `Already used by item ${ext}.` });
          details.push(`Item ${ext} already has externalId ${claimed.externalId}.`);
        }
        const sku = held.find((h) => claimed.sku !== null && h.status === 'active' && h.sku === claimed.sku)?.id;
        if (sku) {
          errors.push({ path: 'sku', message: `Already used by active item ${sku}.` });
          details.push(`Active item ${sku} already has SKU ${claimed.sku}.`);
        }
        for (const { index, barcode } of claimed.barcodes) {
          const o = held.find((h) => h.status === 'active' && h.barcodes.includes(barcode))?.id;
          if (!o) continue;
          errors.push({ path: `barcodes[${index}]`, message: `Already used by active item ${o}.` });
          details.push(`Active item ${o} already has barcode ${barcode}.`);
        }
        if (errors.length > 0) throw new Conflict(details.join(' '), errors);
      }),
  },
  {
    name: 'inventory.unit-name-free',
    what: 'a new company-wide unit\'s name against the company\'s and every item\'s own kept in g (412 units)',
    service,
    seed,
    raw: (w) => outcome(() => assertNameFree(w.em, 'Tray', 'g', null)),
    orm: (w) =>
      outcome(async () => {
        // the ORM takes no query builder as a sub-query (only its knex query): the items kept in g first
        const keptIn = await w.em.createQueryBuilder(InventoryItem, 'i').select('id').where({ baseUnit: 'g' }).execute<Array<{ id: string }>>('all', true);
        const rows = await w.em
          .createQueryBuilder(InventoryUnitOfMeasure, 'u')
          .select(['id', 'itemId'])
          .where({ $or: [{ itemId: null }, ...(keptIn.length > 0 ? [{ itemId: { $in: keptIn.map((i) => i.id) } }] : [])] })
          .andWhere('lower(u.name) = lower(?)', ['Tray'])
          .orderBy({ itemId: QueryOrder.ASC_NULLS_FIRST })
          .limit(1)
          .execute<Array<{ id: string; itemId: string | null }>>('all', true);
        if (rows[0]) throw new Conflict('taken', []);
      }),
  },
  {
    name: 'inventory.replenishment',
    what: 'purchasing\'s replenishment read: 31 items\' levels and a week\'s sales usage at a busy kitchen (120,000 movements there)',
    service,
    seed,
    raw: (w) => replenishment(w, REPLENISH),
    async orm(w) {
      const body = REPLENISH;
      const located = await resolveLocations(w, [{ locationId: body.locationId }]);
      if (!located.byId.has(body.locationId)) throw new ValidationError([{ path: 'locationId', message: `No location ${body.locationId}.` }]);
      const lv = new Map((await findPlain(w.em, StockLevelRow, { locationId: body.locationId, itemId: { $in: body.itemIds } })).map((l) => [l.itemId, l]));
      // no aggregate in the ORM but count (a sum is a raw fragment): the sales movements of the window, summed in code
      const used = await w.em
        .createQueryBuilder(StockMovementRow, 'm')
        .select(['itemId', 'quantity'])
        .where({ locationId: body.locationId, itemId: { $in: body.itemIds }, occurredAt: { $gte: new Date(body.usageFrom), $lt: new Date(body.usageTo) }, type: { $in: ['sale', 'refund', 'void_reversal'] } })
        .execute<Array<{ itemId: string; quantity: string }>>('all', true);
      const usage = sumBy(used);
      return {
        items: body.itemIds.map((itemId) => {
          const l = lv.get(itemId);
          const onHand = dec(l?.onHand ?? 0);
          const reserved = dec(l?.reserved ?? 0);
          return {
            itemId,
            onHand: formatQuantity(onHand),
            reserved: formatQuantity(reserved),
            available: formatQuantity(onHand.minus(reserved)),
            parLevel: formatNullable(l?.parLevel ?? null),
            reorderPoint: formatNullable(l?.reorderPoint ?? null),
            usage: formatQuantity(dec(usage.get(itemId) ?? 0).negated()),
          };
        }),
      };
    },
  },
  {
    name: 'inventory.without-nothing-to-do',
    what: 'which of a batch\'s 334 item-less sales were depleted before (1,000 sales, 30,000 depletion rows)',
    service,
    seed,
    raw: async (w) => (await withoutNothingToDo(w, ITEMLESS_BATCH)).map((t) => t.id),
    async orm(w) {
      const itemless = ITEMLESS_BATCH.filter((t) => t.lines.every((l) => l.itemId === null));
      if (itemless.length === 0) return ITEMLESS_BATCH.map((t) => t.id);
      const stored = await w.em.createQueryBuilder(SaleDepletionRow).select('transactionId').where({ transactionId: { $in: itemless.map((t) => t.id) } }).execute<Array<{ transactionId: string }>>('all', true);
      const keep = new Set(stored.map((r) => r.transactionId));
      return ITEMLESS_BATCH.filter((t) => keep.has(t.id) || t.lines.some((l) => l.itemId !== null)).map((t) => t.id);
    },
  },
  {
    name: 'inventory.list-levels',
    what: 'GET /stock-levels at a busy kitchen, a page of 50 after a cursor (24,000 levels)',
    service,
    seed,
    raw: (w) => listLevels(w, LEVEL_FILTER),
    async orm(w) {
      const [ts, itemId, locationId] = JSON.parse(LEVEL_FILTER.after!) as [string, string, string];
      const at = new Date(ts);
      const rows = await w.em
        .createQueryBuilder(StockLevelRow, 'l')
        .select('*')
        .where({ locationId: LEVEL_FILTER.locationId, $or: [{ updatedAt: { $gt: at } }, { updatedAt: at, itemId: { $gt: itemId } }, { updatedAt: at, itemId, locationId: { $gt: locationId } }] })
        .orderBy([{ updatedAt: QueryOrder.ASC }, { itemId: QueryOrder.ASC }, { locationId: QueryOrder.ASC }])
        .limit(LEVEL_FILTER.limit + 1)
        .execute<StockLevelRow[]>('all', true);
      return rows.map((r) => {
        const l = levelOfEntity(r, null);
        // a Date holds milliseconds: the cursor's microseconds are its three zeros
        return { id: JSON.stringify([l.updatedAt.toISOString().replace('Z', '000Z'), r.itemId, r.locationId]), level: stockLevelDto(l) };
      });
    },
  },
  {
    name: 'inventory.lock-levels',
    what: 'create-and-lock the 30 ingredient levels a sales batch at one kitchen touches (24,000 levels)',
    service,
    seed,
    raw: async (w) => [...(await lockLevels(w, BATCH_PAIRS)).values()].map(levelValues),
    async orm(w) {
      const pairs = sortedPairs(BATCH_PAIRS);
      await w.em.createQueryBuilder(StockLevelRow).insert(pairs.map((x) => ({ itemId: x.itemId, locationId: x.locationId, updatedAt: w.now })) as never[]).onConflict(['itemId', 'locationId']).ignore().execute();
      const rows = await w.em
        .createQueryBuilder(StockLevelRow, 'l')
        .select('*')
        .where({ $or: pairs.map((x) => ({ itemId: x.itemId, locationId: x.locationId })) })
        .orderBy({ itemId: QueryOrder.ASC, locationId: QueryOrder.ASC })
        .setLockMode(LockMode.PESSIMISTIC_WRITE)
        .execute<StockLevelRow[]>('all', true);
      const costs = new Map((await findPlain(w.em, InventoryItem, { id: { $in: [...new Set(pairs.map((x) => x.itemId))] } })).map((i) => [i.id, i.cost ?? null]));
      return rows.filter((r) => costs.has(r.itemId)).map((r) => levelValues(levelOfEntity(r, costs.get(r.itemId)!)));
    },
  },
  {
    name: 'inventory.configure-level',
    what: 'a level\'s new par level and reorder point (locked before), one update (24,000 levels)',
    service,
    seed,
    raw: (w) => saveLevelConfiguration(w, CONFIGURED),
    async orm(w) {
      const next = CONFIGURED;
      await w.em.nativeUpdate(
        StockLevelRow,
        { itemId: next.itemId, locationId: next.locationId },
        { parLevel: next.parLevel?.toFixed() ?? null, reorderPoint: next.reorderPoint?.toFixed() ?? null, version: next.version, updatedAt: next.updatedAt },
      );
    },
  },
  {
    name: 'inventory.update-levels',
    what: 'the 30 levels a sales batch\'s posting changed, in one update',
    service,
    seed,
    raw: (w) => updateLevelRows(w, CHANGED, new Date(T0 + DAYS * DAY + 3_600_000)),
    async orm(w) {
      const stamp = new Date(T0 + DAYS * DAY + 3_600_000);
      await w.em
        .createQueryBuilder(StockLevelRow)
        .insert(CHANGED.map((l) => ({ itemId: l.itemId, locationId: l.locationId, onHand: l.onHand.toFixed(), reserved: l.reserved.toFixed(), averageCost: l.averageCost?.toFixed() ?? null, stockValue: l.value?.toFixed() ?? null, version: l.version, updatedAt: stamp })))
        .onConflict(['itemId', 'locationId'])
        .merge(['onHand', 'reserved', 'averageCost', 'stockValue', 'version', 'updatedAt'])
        .execute();
    },
  },
  {
    name: 'inventory.lock-depletions',
    what: 'create-and-lock the depletion rows of a bus batch of 1,000 sales (30,000 rows)',
    service,
    seed,
    raw: async (w) => [...(await lockDepletions(w, NEW_BATCH)).values()],
    async orm(w) {
      await w.em.createQueryBuilder(SaleDepletionRow).insert(NEW_BATCH.map((t) => ({ transactionId: t.id, locationId: t.locationId, version: 0, applied: {}, updatedAt: w.now }))).onConflict('transactionId').ignore().execute();
      const rows = await w.em
        .createQueryBuilder(SaleDepletionRow)
        .select(['transactionId', 'locationId', 'version', 'applied'])
        .where({ transactionId: { $in: NEW_BATCH.map((t) => t.id) } })
        .orderBy({ transactionId: QueryOrder.ASC })
        .setLockMode(LockMode.PESSIMISTIC_WRITE)
        .execute<Array<{ transactionId: string; locationId: string; version: number; applied: Record<string, string> }>>('all', true);
      return rows.map((r) => ({ transaction_id: r.transactionId, location_id: r.locationId, version: r.version, applied: r.applied }));
    },
  },
  {
    name: 'inventory.update-depletions',
    what: 'what a batch of 1,000 sales now applied, in one update (30,000 depletion rows)',
    service,
    seed,
    raw: (w) => updateDepletions(w, UPDATES),
    async orm(w) {
      await w.em
        .createQueryBuilder(SaleDepletionRow)
        .insert(UPDATES.map((u) => ({ transactionId: u.transaction_id, locationId: u.location_id, version: u.version, applied: u.applied, updatedAt: w.now })))
        .onConflict('transactionId')
        .merge(['locationId', 'version', 'applied', 'updatedAt'])
        .execute();
    },
  },
  {
    name: 'inventory.insert-movements',
    what: 'the movements of a sales batch\'s posting in one insert (8,000 rows)',
    service,
    seed,
    raw: (w) => insertMovementRows(w, POSTING),
    async orm(w) {
      const actor = actorOf(w.actor);
      const rows = POSTING.map((x) => ({
        id: x[0], itemId: x[1], locationId: x[2], type: x[3], quantity: x[4], reservedChange: x[5], onHandAfter: x[6], reservedAfter: x[7], unitCost: x[8], value: x[9],
        causeType: x[10], causeId: x[11], reason: x[12], note: x[13], businessDay: x[14], occurredAt: new Date(x[15] as string), createdAt: w.now, actor,
      }));
      // a statement takes at most 65,535 parameters: 18 columns a row
      for (let i = 0; i < rows.length; i += 3000) await w.em.insertMany(StockMovementRow, rows.slice(i, i + 3000) as never[]);
    },
  },
];

const CHANGED: Level[] = BATCH_PAIRS.map((x, n) => ({
  itemId: x.itemId, locationId: x.locationId, onHand: dec(25000 - 4000 + n), reserved: dec(0), averageCost: dec('0.01'), value: dec(210 + n / 100), parLevel: dec(40000), reorderPoint: dec(20000),
  version: 2 + (n % 9), updatedAt: new Date(T0 + DAYS * DAY + 3_600_000), itemCost: dec('0.01'),
}));
const NEW_ITEM: ItemFields = { externalId: 'ext-new-1', sku: 'SKU-42', barcodes: ['999000001', `300000${pad(43)}`], name: 'New item', categoryId: null, baseUnit: 'g', cost: null, status: 'active' };
const REPLENISH = { locationId: HOME, itemIds: [...Array.from({ length: INGREDIENTS }, (_, i) => ing(i)), SAUCE], usageFrom: new Date(T0 + (DAYS - 7) * DAY).toISOString(), usageTo: new Date(T0 + DAYS * DAY).toISOString() };
const NEW_BATCH = salesBatch(DAYS);
const ITEMLESS_BATCH = salesBatch(DAYS, 3);
const UPDATES: DepletionUpdate[] = salesBatch(DAYS - 1).map((t) => ({ transaction_id: t.id, location_id: HOME, version: 2, applied: { [ing(0)]: '-15', [ing(1)]: '-12.5', [ing(2)]: '-120', [ing(11)]: '-33.333333' } }));
const LEVEL_FILTER = { reachable: null, locationId: HOME, after: JSON.stringify([new Date(T0 + DAYS * DAY + 100_000).toISOString().replace('Z', '000Z'), other(48), HOME]), limit: 50 };
const CONFIGURED = { itemId: other(20), locationId: HOME, parLevel: dec(150), reorderPoint: dec(40), version: 9, updatedAt: new Date(T0 + DAYS * DAY + 3_600_000) };
