import { z } from '../zod';
import { Actor, ListQuery, Timestamp, listEnvelope } from '../common';
import { InventoryMoney, MovementCause, NonNegativeQuantity, PositiveQuantity, SignedQuantity, StockLevel, StockMovement, StockMovementType } from './common';

/**
 * The stock area: adjustments and waste (documents that write the ledger), the levels derived from
 * it (with par level and reorder point per item and location) and the ledger itself.
 * Quantities in a line are in the unit `unitId` names (one of the item's units of measure), else in
 * the item's base unit; `baseQuantity`, costs and values are per base unit / in the company currency.
 */

const id = (example: string) => z.string().min(1).max(64).openapi({ example });
const note = z.string().trim().min(1).max(2000);

/**
 * Why stock was adjusted. The sign of each line must fit the reason: `found` and `opening_balance`
 * add stock, `lost` and `damaged` remove it, `correction` and `other` go either way; `other` needs a note.
 */
export const AdjustmentReason = z.enum(['found', 'lost', 'damaged', 'correction', 'opening_balance', 'other']);
export type AdjustmentReason = z.output<typeof AdjustmentReason>;

/** Why stock was thrown away or went missing (shrink); `other` needs a note. */
export const WasteReason = z.enum(['spoiled', 'expired', 'damaged', 'overproduction', 'theft', 'other']);
export type WasteReason = z.output<typeof WasteReason>;

/** When it happened (any offset, stored in UTC); not more than 5 minutes ahead of the server's clock. Default: now. */
const OccurredAt = Timestamp.openapi({ description: 'when it happened; default now; not in the future' });

export const StockAdjustmentLineInput = z.strictObject({
  itemId: id('itm_01JD3Y7Q0ZK8M4N2P5R6S7T8V9'),
  /** + found, − lost; in `unitId` when given, else the item's base unit */
  quantity: SignedQuantity,
  unitId: id('uom_01JD3Y7Q0ZK8M4N2P5R6S7T8V9').nullable().optional(),
  /** cost per base unit of stock that arrives (positive lines only): moves the weighted-average cost */
  unitCost: InventoryMoney.nullable().optional(),
});

/** Body of `POST /inventory/adjustments`. */
export const StockAdjustmentCreate = z
  .strictObject({
    locationId: id('loc_01JD3Y7Q0ZK8M4N2P5R6S7T8V9'),
    reason: AdjustmentReason,
    note: note.nullable().optional(),
    occurredAt: OccurredAt.optional(),
    /** at most API_MAX_BATCH_SIZE lines; an item may appear on several lines (each is one movement) */
    lines: z.array(StockAdjustmentLineInput).min(1, 'Send at least one line.'),
  })
  .openapi('StockAdjustmentCreate');
export type StockAdjustmentCreate = z.output<typeof StockAdjustmentCreate>;

export const WasteLineInput = z.strictObject({
  itemId: id('itm_01JD3Y7Q0ZK8M4N2P5R6S7T8V9'),
  /** how much was wasted (> 0), in `unitId` when given, else the item's base unit */
  quantity: PositiveQuantity,
  unitId: id('uom_01JD3Y7Q0ZK8M4N2P5R6S7T8V9').nullable().optional(),
});

/** Body of `POST /inventory/waste`. */
export const WasteRecordCreate = z
  .strictObject({
    locationId: id('loc_01JD3Y7Q0ZK8M4N2P5R6S7T8V9'),
    reason: WasteReason,
    note: note.nullable().optional(),
    occurredAt: OccurredAt.optional(),
    /** at most API_MAX_BATCH_SIZE lines; an item may appear on several lines (each is one movement) */
    lines: z.array(WasteLineInput).min(1, 'Send at least one line.'),
  })
  .openapi('WasteRecordCreate');
export type WasteRecordCreate = z.output<typeof WasteRecordCreate>;


/** One line of a stored adjustment or waste record. */
export const StockDocumentLine = z
  .object({
    itemId: z.string(),
    /** as sent, in `unitId` (or the base unit) */
    quantity: z.string(),
    unitId: z.string().nullable(),
    /** in the item's base unit: signed for adjustments, the amount wasted (> 0) for waste */
    baseQuantity: z.string(),
    /** cost per base unit the line was valued at (the given cost of found stock, else the average or standard cost); null when the item has no cost yet */
    unitCost: z.string().nullable(),
    /** baseQuantity × unitCost (adjustments: signed; waste: the value lost, > 0); null without a cost */
    value: z.string().nullable(),
    /** the ledger line it wrote */
    movementId: z.string(),
  })
  .openapi('StockDocumentLine');
export type StockDocumentLine = z.output<typeof StockDocumentLine>;

const documentFields = {
  locationId: z.string(),
  note: z.string().nullable(),
  occurredAt: z.string(),
  /** from the location's time zone and business-day cut-off */
  businessDay: z.string(),
  lines: z.array(StockDocumentLine),
  /** sum of the lines' values (lines without a cost count nothing) */
  totalValue: z.string(),
  /** the ledger lines written, in line order */
  movements: z.array(StockMovement),
  actor: Actor,
  createdAt: z.string(),
};

export const StockAdjustment = z
  .object({ id: z.string().openapi({ example: 'adj_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }), reason: AdjustmentReason, ...documentFields })
  .openapi('StockAdjustment');
export type StockAdjustment = z.output<typeof StockAdjustment>;

/** A waste record (also `data.object` of `waste.recorded`). */
export const WasteRecord = z
  .object({ id: z.string().openapi({ example: 'wst_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }), reason: WasteReason, ...documentFields })
  .openapi('WasteRecord');
export type WasteRecord = z.output<typeof WasteRecord>;

const documentFilters = {
  locationId: id('loc_01JD3Y7Q0ZK8M4N2P5R6S7T8V9').optional(),
  /** documents with a line of this item */
  itemId: id('itm_01JD3Y7Q0ZK8M4N2P5R6S7T8V9').optional(),
  /** occurredAt at or after */
  from: Timestamp.optional(),
};

export const StockAdjustmentListQuery = ListQuery.extend({ ...documentFilters, reason: AdjustmentReason.optional() });
export const WasteRecordListQuery = ListQuery.extend({ ...documentFilters, reason: WasteReason.optional() });

const booleanQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

/** Ordered by updatedAt then item and location; with `updatedSince`, in commit order (docs/api.md, "Polling with updatedSince"), so a poller pages through without skipping. */
export const StockLevelListQuery = ListQuery.extend({
  locationId: id('loc_01JD3Y7Q0ZK8M4N2P5R6S7T8V9').optional(),
  itemId: id('itm_01JD3Y7Q0ZK8M4N2P5R6S7T8V9').optional(),
  updatedSince: Timestamp.optional().openapi({
    description:
      'levels changed at or after this time (inclusive), in the order their changes committed. Keep polling with the returned nextCursor (it stops where transactions still running may commit); a level may come again, skip versions already seen.',
  }),
  /** `true`: only levels whose available is below their reorder point; `false`: only the others */
  belowReorderPoint: booleanQuery.optional(),
});

/** Body of `POST /stock-levels:configure`: a field sent replaces the stored one (null clears it), a field not sent is kept. */
export const StockLevelConfigure = z
  .strictObject({
    locationId: id('loc_01JD3Y7Q0ZK8M4N2P5R6S7T8V9'),
    itemId: id('itm_01JD3Y7Q0ZK8M4N2P5R6S7T8V9'),
    /** the stock to order up to, in the item's base unit */
    parLevel: NonNegativeQuantity.nullable().optional(),
    /** below this available quantity the level is flagged (`stock.below_reorder_point`); not above the par level */
    reorderPoint: NonNegativeQuantity.nullable().optional(),
  })
  .refine((b) => b.parLevel !== undefined || b.reorderPoint !== undefined, { message: 'Send parLevel, reorderPoint or both.', path: ['reorderPoint'] })
  .openapi('StockLevelConfigure');
export type StockLevelConfigure = z.output<typeof StockLevelConfigure>;

/** The ledger in append order (cursor by sequence). */
export const StockMovementListQuery = ListQuery.extend({
  locationId: id('loc_01JD3Y7Q0ZK8M4N2P5R6S7T8V9').optional(),
  itemId: id('itm_01JD3Y7Q0ZK8M4N2P5R6S7T8V9').optional(),
  type: StockMovementType.optional(),
  causeType: MovementCause.shape.type.optional(),
  /** only with causeType */
  causeId: id('adj_01JD3Y7Q0ZK8M4N2P5R6S7T8V9').optional(),
  /** occurredAt at or after */
  from: Timestamp.optional(),
  /** occurredAt before */
  to: Timestamp.optional(),
});

/** Adjustments, waste, levels and the ledger. */
export const inventoryStockOperations = {
  'POST /inventory/adjustments': { body: StockAdjustmentCreate, response: StockAdjustment, status: 201 },
  'GET /inventory/adjustments': { query: StockAdjustmentListQuery, response: listEnvelope(StockAdjustment) },
  'POST /inventory/waste': { body: WasteRecordCreate, response: WasteRecord, status: 201 },
  'GET /inventory/waste': { query: WasteRecordListQuery, response: listEnvelope(WasteRecord) },
  'GET /stock-levels': { query: StockLevelListQuery, response: listEnvelope(StockLevel) },
  'POST /stock-levels:configure': { body: StockLevelConfigure, response: StockLevel },
  'GET /stock-movements': { query: StockMovementListQuery, response: listEnvelope(StockMovement) },
};
