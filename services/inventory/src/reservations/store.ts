import Decimal from 'decimal.js';
import { Conflict, lockForTransaction, sqlQuery, type EntityManager, type Principal } from '@bop/shared';
import { resolveLines } from '../items/lines-store';
import { formatQuantity, round6 } from '../ledger/quantity';
import { postMovements, type MovementInput } from '../ledger/store';
import { stockComponents } from './components-store';

/**
 * Stock held for online sales orders (supplement: Sales order `:reserve`, `:ship`, `:cancel`). Sales
 * calls these as internal commands, keyed by its order id, and may repeat them (a retry after its
 * own commit failed): reserving a reserved order, shipping a shipped one or releasing a released
 * one answers what is held, changing nothing. One row per order (`inventory.order_reservations`).
 */
export interface OrderLineRef {
  itemId: string;
  /** in the item's base unit */
  quantity: string;
}

export interface HeldStock {
  orderId: string;
  locationId: string;
  status: 'reserved' | 'shipped' | 'released';
  lines: Array<{ itemId: string; quantity: string }>;
}

interface Row {
  order_id: string;
  location_id: string;
  status: HeldStock['status'];
  lines: Array<{ itemId: string; quantity: string }>;
}

const held = (r: Row): HeldStock => ({ orderId: r.order_id, locationId: r.location_id, status: r.status, lines: r.lines });

async function lockRow(em: EntityManager, orderId: string): Promise<Row | undefined> {
  // serialises every command of one order (a reserve racing a ship or a release)
  await lockForTransaction(em, `inventory.order ${orderId}`);
  return (await sqlQuery<Row>(em, `select * from "inventory"."order_reservations" where "order_id" = ? for update`, [orderId]))[0];
}

/** The order commands, each in a transaction of its own (see `reserve`, `ship`, `release`). */
export const reserveStock = (em: EntityManager, input: { orderId: string; locationId: string; lines: OrderLineRef[] }, now: Date, actor: Principal | null): Promise<HeldStock> =>
  em.transactional((tem) => reserve(tem, input, now, actor));
export const shipStock = (em: EntityManager, input: { orderId: string; locationId: string; lines: OrderLineRef[]; shippedAt: Date }, now: Date, actor: Principal | null): Promise<HeldStock> =>
  em.transactional((tem) => ship(tem, input, now, actor));
export const releaseStock = (em: EntityManager, orderId: string, now: Date, actor: Principal | null): Promise<HeldStock | null> => em.transactional((tem) => release(tem, orderId, now, actor));

/**
 * The stock an order's lines take: each line's item, or its usage recipe's ingredients, summed per
 * item; and for each stock item the first order line needing it (where a shortage is reported).
 */
async function stockOf(em: EntityManager, lines: OrderLineRef[]): Promise<{ perItem: Map<string, Decimal>; firstLine: Map<string, number> }> {
  const resolved = await resolveLines(em, lines, { allowArchived: true });
  const components = await stockComponents(em, [...new Set(lines.map((l) => l.itemId))]);
  const perItem = new Map<string, Decimal>();
  const firstLine = new Map<string, number>();
  resolved.forEach((r, i) => {
    for (const c of components.get(r.item.id) ?? [{ itemId: r.item.id, perUnit: new Decimal(1) }]) {
      perItem.set(c.itemId, round6((perItem.get(c.itemId) ?? new Decimal(0)).plus(r.base.times(c.perUnit))));
      if (!firstLine.has(c.itemId)) firstLine.set(c.itemId, i);
    }
  });
  return { perItem, firstLine };
}

function movements(
  orderId: string,
  locationId: string,
  perItem: Map<string, Decimal>,
  type: 'reservation' | 'shipment' | 'release',
  reserved: boolean,
  at: Date,
): MovementInput[] {
  return [...perItem].map(([itemId, q]) => ({
    itemId,
    locationId,
    type,
    quantity: type === 'shipment' ? q.negated() : 0,
    reservedChange: type === 'reservation' ? q : type === 'release' || reserved ? q.negated() : 0,
    cause: { type: 'sales_order' as const, id: orderId },
    occurredAt: at,
  }));
}

const linesOf = (perItem: Map<string, Decimal>) => [...perItem].map(([itemId, q]) => ({ itemId, quantity: formatQuantity(q) }));

async function reserve(em: EntityManager, input: { orderId: string; locationId: string; lines: OrderLineRef[] }, now: Date, actor: Principal | null): Promise<HeldStock> {
  const row = await lockRow(em, input.orderId);
  if (row?.status === 'reserved') return held(row);
  if (row) throw new Conflict(`The stock of order ${input.orderId} was ${row.status}; nothing can be reserved for it any more.`);
  const { perItem, firstLine } = await stockOf(em, input.lines);
  const items = [...perItem.keys()];
  await postMovements(em, movements(input.orderId, input.locationId, perItem, 'reservation', false, now), {
    now,
    actor,
    requireAvailable: { path: (i) => `lines[${firstLine.get(items[i])}].quantity` },
  });
  const lines = linesOf(perItem);
  await sqlQuery(
    em,
    `insert into "inventory"."order_reservations" ("order_id", "location_id", "status", "lines", "created_at", "updated_at") values (?, ?, 'reserved', ?::jsonb, ?, ?)`,
    [input.orderId, input.locationId, JSON.stringify(lines), now, now],
  );
  return { orderId: input.orderId, locationId: input.locationId, status: 'reserved', lines };
}

/** Deducts the order's stock: what it holds reserved, else its lines (which must be available). */
async function ship(em: EntityManager, input: { orderId: string; locationId: string; lines: OrderLineRef[]; shippedAt: Date }, now: Date, actor: Principal | null): Promise<HeldStock> {
  const row = await lockRow(em, input.orderId);
  if (row?.status === 'shipped') return held(row);
  if (row?.status === 'released') throw new Conflict(`The stock of order ${input.orderId} was released; it cannot be shipped.`);
  let perItem: Map<string, Decimal>;
  let path: (i: number) => string;
  if (row) {
    perItem = new Map(row.lines.map((l) => [l.itemId, new Decimal(l.quantity)]));
    path = (i) => `reservations[${i}].quantity`;
  } else {
    const stock = await stockOf(em, input.lines);
    perItem = stock.perItem;
    const items = [...perItem.keys()];
    path = (i) => `lines[${stock.firstLine.get(items[i])}].quantity`;
  }
  await postMovements(em, movements(input.orderId, row?.location_id ?? input.locationId, perItem, 'shipment', row !== undefined, input.shippedAt), { now, actor, requireAvailable: { path } });
  const lines = linesOf(perItem);
  await sqlQuery(
    em,
    `insert into "inventory"."order_reservations" ("order_id", "location_id", "status", "lines", "created_at", "updated_at") values (?, ?, 'shipped', ?::jsonb, ?, ?)
     on conflict ("order_id") do update set "status" = 'shipped', "lines" = excluded."lines", "version" = "order_reservations"."version" + 1, "updated_at" = excluded."updated_at"`,
    [input.orderId, row?.location_id ?? input.locationId, JSON.stringify(lines), now, now],
  );
  return { orderId: input.orderId, locationId: row?.location_id ?? input.locationId, status: 'shipped', lines };
}

/** Gives back what an order holds reserved (its cancellation); nothing held → nothing to do. A shipped order's stock stays deducted. */
async function release(em: EntityManager, orderId: string, now: Date, actor: Principal | null): Promise<HeldStock | null> {
  const row = await lockRow(em, orderId);
  if (!row || row.status !== 'reserved') return row ? held(row) : null;
  const perItem = new Map(row.lines.map((l) => [l.itemId, new Decimal(l.quantity)]));
  await postMovements(em, movements(orderId, row.location_id, perItem, 'release', true, now), { now, actor });
  await sqlQuery(em, `update "inventory"."order_reservations" set "status" = 'released', "version" = "version" + 1, "updated_at" = ? where "order_id" = ?`, [now, orderId]);
  return { ...held(row), status: 'released' };
}
