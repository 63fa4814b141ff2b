import Decimal from 'decimal.js';
import { lockForTransaction, type Work } from '@bop/shared';
import type { MovementsPostedObject, StockLevel } from '@bop/contracts';
import { flowOf, type Flow } from './usage';
import { StockFlow, StockItem, StockOnHand } from './entities';

/**
 * Adds a posting's sums to the flows of its location (one posting at a time per location: a lock,
 * so two postings never lose each other's sums). Sums without a business day are not counted.
 */
export async function applyMovementsPosted(w: Work, o: MovementsPostedObject): Promise<void> {
  const adds = new Map<string, { businessDay: string; itemId: string; flow: Flow; quantity: Decimal; value: Decimal; unvalued: number }>();
  for (const x of o.sums) {
    const flow = flowOf(x.type, x.reason);
    if (!flow || x.businessDay === null) continue;
    const id = `${o.locationId}|${x.businessDay}|${x.itemId}|${flow}`;
    const a = adds.get(id) ?? { businessDay: x.businessDay, itemId: x.itemId, flow, quantity: new Decimal(0), value: new Decimal(0), unvalued: 0 };
    a.quantity = a.quantity.plus(x.quantity);
    a.value = a.value.plus(x.value);
    a.unvalued += x.unvalued;
    adds.set(id, a);
  }
  if (adds.size === 0) return;
  await lockForTransaction(w.em, `${w.schema}.stock ${o.locationId}`);
  const held = new Map((await w.em.find(StockFlow, { id: { $in: [...adds.keys()] } })).map((f) => [f.id, f]));
  for (const [id, a] of adds) {
    const f = held.get(id);
    if (f) {
      f.quantity = a.quantity.plus(f.quantity).toFixed();
      f.value = a.value.plus(f.value).toFixed();
      f.unvalued += a.unvalued;
    } else {
      w.em.create(StockFlow, { id, locationId: o.locationId, businessDay: a.businessDay, itemId: a.itemId, flow: a.flow, quantity: a.quantity.toFixed(), value: a.value.toFixed(), unvalued: a.unvalued });
    }
  }
  await w.em.flush();
}

/** Keeps an item's level at a location by its version: an older or repeated one changes nothing. */
export async function applyLevel(w: Work, l: Pick<StockLevel, 'itemId' | 'locationId' | 'onHand' | 'averageCost' | 'value' | 'version' | 'updatedAt'>): Promise<void> {
  const id = `${l.itemId}|${l.locationId}`;
  await lockForTransaction(w.em, `${w.schema}.level ${id}`);
  const held = await w.em.findOne(StockOnHand, { id });
  const fields = { onHand: l.onHand, averageCost: l.averageCost, value: l.value, version: l.version, updatedAt: new Date(l.updatedAt) };
  if (!held) w.em.create(StockOnHand, { id, itemId: l.itemId, locationId: l.locationId, ...fields });
  else if (held.version < l.version) Object.assign(held, fields);
  await w.em.flush();
}

/** Keeps an item's name and base unit (the newest `updatedAt` wins). */
export async function applyItem(w: Work, i: { id: string; name: string; baseUnit: string; updatedAt: string }): Promise<void> {
  const held = await w.em.findOne(StockItem, { id: i.id });
  const updatedAt = new Date(i.updatedAt);
  if (!held) w.em.create(StockItem, { id: i.id, name: i.name, baseUnit: i.baseUnit, updatedAt });
  else if (held.updatedAt.getTime() <= updatedAt.getTime()) Object.assign(held, { name: i.name, baseUnit: i.baseUnit, updatedAt });
  await w.em.flush();
}
