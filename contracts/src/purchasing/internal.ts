import { z } from '../zod';

/**
 * What purchasing and inventory say to each other (not part of the public API).
 *
 * Receipts (issue: "`:receive` … → inventory receipt movements and weighted-average cost"): purchasing
 * records each receipt of a purchase order and announces it with the internal event
 * `purchasing.receipt.recorded` (through its outbox, in the receipt's own transaction); inventory
 * consumes it once and posts one `receipt` movement per line (cause `purchase_order`), moving the
 * weighted-average cost. The event, not a synchronous call, is the channel: a receipt is never lost
 * or booked twice, whatever fails in between.
 */
export const RECEIPT_RECORDED = 'purchasing.receipt.recorded';

const decimal = /^-?\d{1,14}(\.\d{1,6})?$/;

export const ReceiptRecordedObject = z.object({
  /** the receipt (`prc_…`) */
  id: z.string().min(1).max(40),
  purchaseOrderId: z.string().min(1).max(64),
  supplierId: z.string().min(1).max(64),
  locationId: z.string().min(1).max(64),
  receivedAt: z.string().refine((v) => !Number.isNaN(Date.parse(v)), { message: 'Must be a timestamp.' }),
  /** the delivery note or the receiver's remark */
  note: z.string().max(2000).nullable().optional(),
  /** lines with something received (quantity > 0) */
  lines: z.array(
    z.object({
      itemId: z.string().min(1).max(64),
      /** in the item's base unit, > 0 */
      quantity: z.string().regex(decimal),
      /** the price actually paid per base unit (six decimals), or null when unknown */
      unitCost: z.string().regex(decimal).nullable(),
      /** what the line cost (packs × the price actually paid, to the cent): the receipt's exact value; absent: quantity × unitCost */
      value: z.string().regex(decimal).nullable().optional(),
    }),
  ),
});
export type ReceiptRecordedObject = z.output<typeof ReceiptRecordedObject>;

/**
 * `POST /internal/items:resolve` (inventory): the items and units a supplier catalog names, so a
 * pack converts to base units once, when the catalog is written. 422 with `lines[i].itemId` /
 * `lines[i].unitId` paths for an unknown or archived item or a unit that does not apply to it.
 */
export const ItemsResolveRequest = z.strictObject({
  lines: z.array(z.strictObject({ itemId: z.string().min(1).max(64), unitId: z.string().min(1).max(64).nullable().optional() })).min(1).max(2000),
});
export type ItemsResolveRequest = z.output<typeof ItemsResolveRequest>;
export const ItemsResolveAnswer = z.object({
  /** in request order */
  lines: z.array(
    z.object({
      itemId: z.string(),
      name: z.string(),
      baseUnit: z.enum(['each', 'g', 'ml']),
      unitId: z.string().nullable(),
      /** base units per one `unitId` ("1" for the base unit) */
      factor: z.string(),
    }),
  ),
});
export type ItemsResolveAnswer = z.output<typeof ItemsResolveAnswer>;

/**
 * `POST /internal/replenishment` (inventory): what suggested orders need per item at one location —
 * the level (on hand, reserved, available, par level, reorder point; zeros and nulls when the item has
 * no level there) and the net usage by sales in [usageFrom, usageTo): −(sale + refund + void_reversal
 * movement quantities), in base units.
 */
export const ReplenishmentRequest = z.strictObject({
  locationId: z.string().min(1).max(64),
  itemIds: z.array(z.string().min(1).max(64)).min(1).max(2000),
  usageFrom: z.iso.datetime({ offset: true }),
  usageTo: z.iso.datetime({ offset: true }),
});
export type ReplenishmentRequest = z.output<typeof ReplenishmentRequest>;
export const ReplenishmentAnswer = z.object({
  /** in request order, one per item id */
  items: z.array(
    z.object({
      itemId: z.string(),
      onHand: z.string(),
      reserved: z.string(),
      available: z.string(),
      parLevel: z.string().nullable(),
      reorderPoint: z.string().nullable(),
      usage: z.string(),
    }),
  ),
});
export type ReplenishmentAnswer = z.output<typeof ReplenishmentAnswer>;
