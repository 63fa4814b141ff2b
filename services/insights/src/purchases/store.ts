import Decimal from 'decimal.js';
import { businessDayOf, findPlain, lockForTransaction, type Work } from '@bop/shared';
import type { PurchaseOrder, ReceiptRecordedObject } from '@bop/contracts';
import { InsightsLocation } from '../locations/entities';
import { OpenOrder, PurchasePrice } from './entities';

/**
 * Keeps each line of a receipt that has a price, once (a receipt never changes at purchasing): supplier,
 * item, location, when it arrived (and the location's business day then), base quantity, the price
 * paid per base unit and the line's value (as paid, to the cent; else quantity × price).
 */
export async function applyReceipt(w: Work, r: ReceiptRecordedObject): Promise<void> {
  if (await w.em.count(PurchasePrice, { receiptId: r.id })) return;
  const [location] = await findPlain(w.em, InsightsLocation, { id: r.locationId });
  const businessDay = location ? businessDayOf(r.receivedAt, location.timezone, location.businessDayCutoff) : null;
  r.lines.forEach((l, i) => {
    if (l.unitCost === null) return;
    const value = l.value ?? new Decimal(l.quantity).times(l.unitCost).toDecimalPlaces(6, Decimal.ROUND_HALF_UP).toFixed();
    w.em.create(PurchasePrice, {
      id: `${r.id}|${i}`,
      receiptId: r.id,
      purchaseOrderId: r.purchaseOrderId,
      supplierId: r.supplierId,
      locationId: r.locationId,
      itemId: l.itemId,
      receivedAt: new Date(r.receivedAt),
      businessDay,
      quantity: l.quantity,
      unitCost: l.unitCost,
      value,
    });
  });
  await w.em.flush();
}

/** What a purchase order still brings, by item in base units: Σ outstanding packs × base quantity per pack. */
export function outstandingOf(o: Pick<PurchaseOrder, 'lines'>): Record<string, string> {
  const out = new Map<string, Decimal>();
  for (const l of o.lines) {
    const q = new Decimal(l.outstandingQuantity).times(l.baseQuantityPerPack);
    if (q.gt(0)) out.set(l.itemId, (out.get(l.itemId) ?? new Decimal(0)).plus(q));
  }
  return Object.fromEntries([...out].map(([k, v]) => [k, v.toFixed()]));
}

/** Keeps a purchase order's latest version (status, expected delivery, what is outstanding); an older or repeated one changes nothing. */
export async function applyOrder(w: Work, o: Pick<PurchaseOrder, 'id' | 'supplierId' | 'locationId' | 'status' | 'expectedDeliveryDate' | 'lines' | 'version'>): Promise<void> {
  await lockForTransaction(w.em, `${w.schema}.order ${o.id}`);
  const held = await w.em.findOne(OpenOrder, { id: o.id });
  const fields = { supplierId: o.supplierId, locationId: o.locationId, status: o.status, expectedDeliveryDate: o.expectedDeliveryDate, outstanding: outstandingOf(o), version: o.version };
  if (!held) w.em.create(OpenOrder, { id: o.id, ...fields });
  else if (held.version < o.version) Object.assign(held, fields);
  await w.em.flush();
}
