import Decimal from 'decimal.js';
import { LockMode } from '@mikro-orm/core';
import { Conflict, lockForTransaction, type EntityManager, type Principal } from '@bop/shared';
import { resolveLines } from '../items/lines-store';
import { formatQuantity, round6 } from '../ledger/quantity';
import { postMovements, type MovementInput } from '../ledger/store';
import { stockComponents } from './components-store';
import { InventoryOrderReservation } from './entities';

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

const held = (r: InventoryOrderReservation): HeldStock => ({ orderId: r.orderId, locationId: r.locationId, status: r.status, lines: r.lines });

async function lockRow(em: EntityManager, orderId: string): Promise<InventoryOrderReservation | undefined> {
  // serialises every command of one order (a reserve racing a ship or a release)
  await lockForTransaction(em, `inventory.order ${orderId}`);
  return (await em.findOne(InventoryOrderReservation, { orderId }, { lockMode: LockMode.PESSIMISTIC_WRITE })) ?? undefined;
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
  em.create(InventoryOrderReservation, { orderId: input.orderId, locationId: input.locationId, status: 'reserved', lines, version: 1, createdAt: now, updatedAt: now });
  await em.flush();
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
  await postMovements(em, movements(input.orderId, row?.locationId ?? input.locationId, perItem, 'shipment', row !== undefined, input.shippedAt), { now, actor, requireAvailable: { path } });
  const lines = linesOf(perItem);
  // the row, if any, is locked (lockRow): it is updated, else the shipment is stored anew
  if (row) em.assign(row, { status: 'shipped', lines, version: row.version + 1, updatedAt: now });
  else em.create(InventoryOrderReservation, { orderId: input.orderId, locationId: input.locationId, status: 'shipped', lines, version: 1, createdAt: now, updatedAt: now });
  await em.flush();
  return { orderId: input.orderId, locationId: row?.locationId ?? input.locationId, status: 'shipped', lines };
}

/** Gives back what an order holds reserved (its cancellation); nothing held → nothing to do. A shipped order's stock stays deducted. */
async function release(em: EntityManager, orderId: string, now: Date, actor: Principal | null): Promise<HeldStock | null> {
  const row = await lockRow(em, orderId);
  if (!row || row.status !== 'reserved') return row ? held(row) : null;
  const perItem = new Map(row.lines.map((l) => [l.itemId, new Decimal(l.quantity)]));
  await postMovements(em, movements(orderId, row.locationId, perItem, 'release', true, now), { now, actor });
  const before = held(row);
  em.assign(row, { status: 'released', version: row.version + 1, updatedAt: now });
  await em.flush();
  return { ...before, status: 'released' };
}
