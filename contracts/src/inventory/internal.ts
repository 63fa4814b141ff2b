import { z } from '../zod';
import { StockMovementType } from './common';

/**
 * Inventory's internal `inventory.movements.posted` (not part of the public API): every posting to
 * the stock ledger, once per location it touched, summed per item, business day, movement type and
 * adjustment reason. Insights reads it for usage (theoretical: the depletion of sales; actual: every
 * other way stock left or was found) without reading inventory's tables. Announced in the posting's
 * own transaction, so a posting is announced once or not at all.
 */
export const MOVEMENTS_POSTED = 'inventory.movements.posted';

const decimal = /^-?\d{1,15}(\.\d{1,6})?$/;

export const MovementsPostedObject = z.object({
  locationId: z.string().min(1).max(64),
  /** the sums of this posting's movements at the location, one per item, business day, type and reason */
  sums: z.array(
    z.object({
      itemId: z.string().min(1).max(64),
      /** the movements' business day (null: the location's time zone was not known to inventory yet) */
      businessDay: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).nullable(),
      type: StockMovementType,
      /** the adjustment's reason (`opening_balance`, `found` …) for `adjustment`; null for other types */
      reason: z.string().max(40).nullable(),
      /** Σ quantity (change of on hand, base unit) */
      quantity: z.string().regex(decimal),
      /** Σ value of the movements that have one (quantity × cost, as the ledger lines carry it) */
      value: z.string().regex(decimal),
      /** movements without a value among them (the item had no cost yet) */
      unvalued: z.number().int().nonnegative(),
    }),
  ),
});
export type MovementsPostedObject = z.output<typeof MovementsPostedObject>;
