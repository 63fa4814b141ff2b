import { z } from '../zod';

/**
 * Shared shapes of the inventory area. Quantities are decimal strings in an item's base unit unless
 * a `unitId` names one of its units of measure; money (costs, values) are decimal strings in the
 * company currency, per base unit for costs.
 */
const decimal = /^-?\d{1,14}(\.\d{1,6})?$/;
const message = 'Must be a decimal string such as "2.5" (up to 14 digits, 6 decimals).';
const decimalString = z.string({ error: (iss) => (typeof iss.input === 'number' ? 'send decimals as strings' : 'Required decimal string.') }).regex(decimal, message);

/** A quantity greater than zero. */
export const PositiveQuantity = decimalString
  .refine((v) => !v.startsWith('-') && /[1-9]/.test(v), { message: 'Must be greater than zero.' })
  .openapi({ example: '12' });
/** A quantity of zero or more (counts: nothing left is a count). */
export const NonNegativeQuantity = decimalString.refine((v) => !v.startsWith('-'), { message: 'Must not be negative.' }).openapi({ example: '4.5' });
/** A signed quantity other than zero (adjustments: + found, − lost). */
export const SignedQuantity = decimalString.refine((v) => /[1-9]/.test(v), { message: 'Must not be zero.' }).openapi({ example: '-2' });
/** A cost or price of zero or more (per base unit for costs). */
export const InventoryMoney = decimalString.refine((v) => !v.startsWith('-'), { message: 'Must not be negative.' }).openapi({ example: '0.0125' });

/** The units stock is kept in: counted pieces, grams, millilitres. Other units convert to one of them. */
export const BaseUnit = z.enum(['each', 'g', 'ml']);
export type BaseUnit = z.output<typeof BaseUnit>;

export const ItemStatus = z.enum(['active', 'archived']);

/**
 * Every cause of a stock change (the ledger's movement types). `quantity` is the change of on hand
 * (negative: stock leaves); `reservedChange` the change of reserved (reservation, release, shipment).
 */
export const StockMovementType = z.enum([
  'receipt',
  'sale',
  'refund',
  'void_reversal',
  'waste',
  'adjustment',
  'count_variance',
  'transfer_out',
  'transfer_in',
  'reservation',
  'release',
  'shipment',
]);
export type StockMovementType = z.output<typeof StockMovementType>;

/** What caused a movement: the record it belongs to. */
export const MovementCause = z.object({
  type: z.enum(['sales_transaction', 'stock_adjustment', 'waste_record', 'stock_count', 'transfer', 'purchase_order', 'sales_order']),
  id: z.string(),
});

/** One line of the append-only stock ledger. */
export const StockMovement = z
  .object({
    id: z.string().openapi({ example: 'smv_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    itemId: z.string(),
    locationId: z.string(),
    type: StockMovementType,
    /** change of on hand, in the item's base unit */
    quantity: z.string(),
    /** change of reserved, in the item's base unit */
    reservedChange: z.string(),
    onHandAfter: z.string(),
    reservedAfter: z.string(),
    /** cost per base unit at the time (the receipt's own cost for receipts), null when the item has no cost yet */
    unitCost: z.string().nullable(),
    /** quantity × unitCost */
    value: z.string().nullable(),
    cause: MovementCause,
    reason: z.string().nullable(),
    note: z.string().nullable(),
    businessDay: z.string().nullable(),
    occurredAt: z.string(),
    createdAt: z.string(),
  })
  .openapi('StockMovement');
export type StockMovement = z.output<typeof StockMovement>;

/** On hand, reserved and available of an item at a location, derived from the ledger. */
export const StockLevel = z
  .object({
    itemId: z.string(),
    locationId: z.string(),
    onHand: z.string(),
    reserved: z.string(),
    /** on hand − reserved */
    available: z.string(),
    /** weighted-average cost per base unit (receipts), null before the first costed receipt */
    averageCost: z.string().nullable(),
    /** on hand × average cost */
    value: z.string().nullable(),
    parLevel: z.string().nullable(),
    reorderPoint: z.string().nullable(),
    /** available is below the reorder point */
    belowReorderPoint: z.boolean(),
    version: z.number().int(),
    updatedAt: z.string(),
  })
  .openapi('StockLevel');
export type StockLevel = z.output<typeof StockLevel>;
