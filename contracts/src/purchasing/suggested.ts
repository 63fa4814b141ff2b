import { z } from '../zod';
import { RecordRef } from './common';

/**
 * `GET /suggested-orders?supplierId&locationId`: per line of the supplier's catalog, what to order so
 * stock reaches the par level when the delivery arrives:
 *   need (base units) = par level − available − on order + expected usage until delivery,
 *   expected usage = average daily usage by sales over the last `usageDays` days × lead time (days),
 *   packs = ⌈need ÷ base units per pack⌉, raised to the line's minimum order quantity (0 when need ≤ 0).
 * On order: what open orders of any supplier (draft, approved, sent, partially received) for the
 * location still expect of the item. Items without a par level are listed with 0 packs and why.
 */
export const SuggestedOrderQuery = z.object({
  supplierId: RecordRef,
  locationId: RecordRef,
  /** the window of recent depletion the usage is averaged over (default 28) */
  usageDays: z.coerce.number().int().min(1).max(365).default(28),
});

export const SuggestedOrderLine = z
  .object({
    supplierItemCode: z.string(),
    itemId: z.string(),
    itemName: z.string(),
    baseUnit: z.enum(['each', 'g', 'ml']),
    /** the numbers, in base units */
    parLevel: z.string().nullable(),
    onHand: z.string(),
    reserved: z.string(),
    available: z.string(),
    onOrder: z.string(),
    usageInWindow: z.string(),
    averageDailyUsage: z.string(),
    leadTimeDays: z.number().int(),
    expectedUsage: z.string(),
    /** par − available − on order + expected usage (may be ≤ 0) */
    need: z.string(),
    baseQuantityPerPack: z.string(),
    minimumOrderQuantity: z.string(),
    /** packs to order */
    quantity: z.string(),
    price: z.string(),
    /** quantity × price */
    amount: z.string(),
    /** the arithmetic in words */
    explanation: z.string(),
  })
  .openapi('SuggestedOrderLine');
export type SuggestedOrderLine = z.output<typeof SuggestedOrderLine>;

export const SuggestedOrder = z
  .object({
    supplierId: z.string(),
    locationId: z.string(),
    usageDays: z.number().int(),
    usageFrom: z.string(),
    usageTo: z.string(),
    lines: z.array(SuggestedOrderLine),
    /** Σ amounts of lines with a quantity */
    total: z.string(),
    generatedAt: z.string(),
  })
  .openapi('SuggestedOrder');
export type SuggestedOrder = z.output<typeof SuggestedOrder>;

export const purchasingSuggestedOperations = {
  'GET /suggested-orders': { query: SuggestedOrderQuery, response: SuggestedOrder },
};
