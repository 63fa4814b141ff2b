import Decimal from 'decimal.js';
import { LockMode } from '@mikro-orm/core';
import { Conflict, lockForTransaction, type Work } from '@bop/shared';
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

async function lockRow(w: Work, orderId: string): Promise<InventoryOrderReservation | undefined> {
  // serialises every command of one order (a reserve racing a ship or a release)
  await lockForTransaction(w.em, `${w.schema}.order ${orderId}`);
  return (await w.em.findOne(InventoryOrderReservation, { orderId }, { lockMode: LockMode.PESSIMISTIC_WRITE })) ?? undefined;
}

/**
 * The stock an order's lines take: each line's item, or its usage recipe's ingredients, summed per
 * item; and for each stock item the first order line needing it (where a shortage is reported).
 */
async function stockOf(w: Work, lines: OrderLineRef[]): Promise<{ perItem: Map<string, Decimal>; firstLine: Map<string, number> }> {
  const resolved = await resolveLines(w, lines, { allowArchived: true });
  const components = await stockComponents(w, [...new Set(lines.map((l) => l.itemId))]);
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

/** Holds an order's stock (available must cover it); the order's first command. */
export async function reserveStock(w: Work, input: { orderId: string; locationId: string; lines: OrderLineRef[] }): Promise<HeldStock> {
  const { em, now } = w;
  const row = await lockRow(w, input.orderId);
  if (row?.status === 'reserved') return held(row);
  if (row) throw new Conflict(`The stock of order ${input.orderId} was ${row.status}; nothing can be reserved for it any more.`);
  const { perItem, firstLine } = await stockOf(w, input.lines);
  const items = [...perItem.keys()];
  await postMovements(w, movements(input.orderId, input.locationId, perItem, 'reservation', false, now), {
    requireAvailable: { path: (i) => `lines[${firstLine.get(items[i])}].quantity` },
  });
  const lines = linesOf(perItem);
  em.create(InventoryOrderReservation, { orderId: input.orderId, locationId: input.locationId, status: 'reserved', lines, version: 1, createdAt: now, updatedAt: now });
  await em.flush();
  return { orderId: input.orderId, locationId: input.locationId, status: 'reserved', lines };
}

/** Deducts the order's stock: what it holds reserved, else its lines (which must be available). */
export async function shipStock(w: Work, input: { orderId: string; locationId: string; lines: OrderLineRef[]; shippedAt: Date }): Promise<HeldStock> {
  const { em, now } = w;
  const row = await lockRow(w, input.orderId);
  if (row?.status === 'shipped') return held(row);
  if (row?.status === 'released') throw new Conflict(`The stock of order ${input.orderId} was released; it cannot be shipped.`);
  let perItem: Map<string, Decimal>;
  let path: (i: number) => string;
  if (row) {
    perItem = new Map(row.lines.map((l) => [l.itemId, new Decimal(l.quantity)]));
    path = (i) => `reservations[${i}].quantity`;
  } else {
    const stock = await stockOf(w, input.lines);
    perItem = stock.perItem;
    const items = [...perItem.keys()];
    path = (i) => `lines[${stock.firstLine.get(items[i])}].quantity`;
  }
  await postMovements(w, movements(input.orderId, row?.locationId ?? input.locationId, perItem, 'shipment', row !== undefined, input.shippedAt), { requireAvailable: { path } });
  const lines = linesOf(perItem);
  // the row, if any, is locked (lockRow): it is updated, else the shipment is stored anew
  if (row) em.assign(row, { status: 'shipped', lines, version: row.version + 1, updatedAt: now });
  else em.create(InventoryOrderReservation, { orderId: input.orderId, locationId: input.locationId, status: 'shipped', lines, version: 1, createdAt: now, updatedAt: now });
  await em.flush();
  return { orderId: input.orderId, locationId: row?.locationId ?? input.locationId, status: 'shipped', lines };
}

/** Gives back what an order holds reserved (its cancellation); nothing held → nothing to do. A shipped order's stock stays deducted. */
export async function releaseStock(w: Work, orderId: string): Promise<HeldStock | null> {
  const { em, now } = w;
  const row = await lockRow(w, orderId);
  if (!row || row.status !== 'reserved') return row ? held(row) : null;
  const perItem = new Map(row.lines.map((l) => [l.itemId, new Decimal(l.quantity)]));
  await postMovements(w, movements(orderId, row.locationId, perItem, 'release', true, now));
  const before = held(row);
  em.assign(row, { status: 'released', version: row.version + 1, updatedAt: now });
  await em.flush();
  return { ...before, status: 'released' };
}
