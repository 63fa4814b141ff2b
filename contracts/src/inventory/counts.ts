import { z } from '../zod';
import { IdParam, ListQuery, Timestamp, listEnvelope } from '../common';
import { NonNegativeQuantity } from './common';

/**
 * Stock counts (supplement: Stock count states): (none) → `open`; `open` → `posted` (final);
 * `open` → `cancelled` (final). An item counted is counted in full at the location: the total over
 * its storage areas is its on hand at `countedAt`.
 */
export const StockCountStatus = z.enum(['open', 'posted', 'cancelled']);
export type StockCountStatus = z.output<typeof StockCountStatus>;

const ref = z.string().trim().min(1).max(64);
const text = (max: number) => z.string().trim().min(1).max(max);

/** One counted quantity: an item in one storage area (or in none), in its base unit unless `unitId` names one of its units. */
export const StockCountLineInput = z.strictObject({
  itemId: ref.openapi({ example: 'itm_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
  /** a storage area of the count's location; an item appears once per storage area (once without one) */
  storageAreaId: ref.nullable().optional(),
  /** zero or more: nothing left is a count */
  quantity: NonNegativeQuantity,
  unitId: ref.nullable().optional(),
});

/** Most lines one count takes (a large store's full count fits with room to spare). */
export const STOCK_COUNT_MAX_LINES = 2000;

/** Body of `POST /stock-counts`: a new count is `open`. */
export const StockCountCreate = z
  .strictObject({
    locationId: ref.openapi({ example: 'loc_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    /** when the stock was counted (default now; not in the future): the ledger's expected quantities are taken at this instant */
    countedAt: Timestamp.optional(),
    note: text(2000).nullable().optional(),
    lines: z.array(StockCountLineInput).min(1, { error: 'Count at least one item.' }).max(STOCK_COUNT_MAX_LINES, { error: `At most ${STOCK_COUNT_MAX_LINES} lines per count.` }),
  })
  .openapi('StockCountCreate');
export type StockCountCreate = z.output<typeof StockCountCreate>;

/** Body of `POST /stock-counts/{id}:post` (nothing to send; If-Match guards the version). */
export const StockCountPost = z.strictObject({}).openapi('StockCountPost');

/** Body of `POST /stock-counts/{id}:cancel`. */
export const StockCountCancel = z.strictObject({ reason: text(500).nullable().optional() }).openapi('StockCountCancel');
export type StockCountCancel = z.output<typeof StockCountCancel>;

/** A line as entered, with its quantity in the item's base unit. */
export const StockCountLine = z
  .object({
    itemId: z.string(),
    storageAreaId: z.string().nullable(),
    /** as entered, in `unitId` (or the base unit) */
    quantity: z.string(),
    unitId: z.string().nullable(),
    /** in the item's base unit */
    baseQuantity: z.string(),
  })
  .openapi('StockCountLine');
export type StockCountLine = z.output<typeof StockCountLine>;

/**
 * One counted item: the counted total over its storage areas, the ledger's expected on hand at
 * `countedAt` and the variance. Computed at read time while the count is `open`; frozen when it is
 * posted (or cancelled).
 */
export const StockCountItem = z
  .object({
    itemId: z.string(),
    /** Σ of the item's lines, base unit */
    counted: z.string(),
    /** Σ of the item's movements at the location with occurredAt ≤ countedAt */
    expected: z.string(),
    /** counted − expected */
    variance: z.string(),
    /** average cost per base unit at the location (the item's standard cost before any costed arrival); null when unknown */
    unitCost: z.string().nullable(),
    /** variance × unitCost; null without a cost */
    varianceValue: z.string().nullable(),
    /** the `count_variance` movement posting wrote (null while open, and for an item without variance) */
    movementId: z.string().nullable(),
  })
  .openapi('StockCountItem');
export type StockCountItem = z.output<typeof StockCountItem>;

export const StockCount = z
  .object({
    id: z.string().openapi({ example: 'cnt_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    locationId: z.string(),
    status: StockCountStatus,
    countedAt: z.string(),
    note: z.string().nullable(),
    lines: z.array(StockCountLine),
    /** per item, in the order the items first appear in `lines` */
    items: z.array(StockCountItem),
    /** Σ of the items' variance values that have one */
    varianceValue: z.string(),
    cancelReason: z.string().nullable(),
    postedAt: z.string().nullable(),
    cancelledAt: z.string().nullable(),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('StockCount');
export type StockCount = z.output<typeof StockCount>;

export const StockCountListQuery = ListQuery.extend({
  locationId: ref.optional(),
  status: StockCountStatus.optional(),
  from: Timestamp.optional().openapi({ description: 'counts whose countedAt is at or after this time' }),
  updatedSince: Timestamp.optional(),
});

/** Stock counts: GET/POST /stock-counts, GET /stock-counts/{id}, POST /stock-counts/{id}:post and :cancel */
export const inventoryCountsOperations = {
  'GET /stock-counts': { query: StockCountListQuery, response: listEnvelope(StockCount) },
  'POST /stock-counts': { body: StockCountCreate, response: StockCount, status: 201 },
  'GET /stock-counts/{id}': { params: IdParam, response: StockCount },
  'POST /stock-counts/{id}:cancel': { params: IdParam, body: StockCountCancel, response: StockCount },
  'POST /stock-counts/{id}:post': { params: IdParam, body: StockCountPost, response: StockCount },
};
