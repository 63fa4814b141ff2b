import { z } from '../zod';
import { IdParam, ListQuery, Timestamp, listEnvelope } from '../common';
import { NonNegativeQuantity, PositiveQuantity } from './common';

/**
 * Transfers between locations (supplement: Transfer states): (none) → `in_transit` (stock leaves the
 * sender); `in_transit` → `received` when every item arrived as sent, else `received_with_discrepancy`
 * (both final; stock enters the receiver at the sender's unit cost).
 */
export const TransferStatus = z.enum(['in_transit', 'received', 'received_with_discrepancy']);
export type TransferStatus = z.output<typeof TransferStatus>;

const ref = z.string().trim().min(1).max(64);
const text = (max: number) => z.string().trim().min(1).max(max);

/** Most lines one transfer takes. */
export const TRANSFER_MAX_LINES = 1000;

export const TransferLineInput = z.strictObject({
  itemId: ref.openapi({ example: 'itm_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
  /** greater than zero, in `unitId` (one of the item's units) or the item's base unit */
  quantity: PositiveQuantity,
  unitId: ref.nullable().optional(),
});

/** Body of `POST /transfers`: each item once. */
export const TransferCreate = z
  .strictObject({
    fromLocationId: ref.openapi({ example: 'loc_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    toLocationId: ref.openapi({ example: 'loc_01JD3Y8A4BC9D0E1F2G3H4J5K6' }),
    note: text(2000).nullable().optional(),
    lines: z.array(TransferLineInput).min(1, { error: 'Send at least one item.' }).max(TRANSFER_MAX_LINES, { error: `At most ${TRANSFER_MAX_LINES} lines per transfer.` }),
  })
  .openapi('TransferCreate');
export type TransferCreate = z.output<typeof TransferCreate>;

export const TransferReceiveLineInput = z.strictObject({
  itemId: ref,
  /** zero or more (zero: nothing of it arrived), in `unitId` or the item's base unit */
  receivedQuantity: NonNegativeQuantity,
  unitId: ref.nullable().optional(),
});

/** Body of `POST /transfers/{id}:receive`: every item sent is answered, once (0 for what did not arrive). */
export const TransferReceive = z
  .strictObject({
    lines: z.array(TransferReceiveLineInput).min(1, { error: 'Answer every item sent.' }).max(TRANSFER_MAX_LINES),
    note: text(2000).nullable().optional(),
  })
  .openapi('TransferReceive');
export type TransferReceive = z.output<typeof TransferReceive>;

export const TransferLine = z
  .object({
    itemId: z.string(),
    /** as entered, in `unitId` (or the base unit) */
    quantity: z.string(),
    unitId: z.string().nullable(),
    /** what left the sender, in the item's base unit */
    sentQuantity: z.string(),
    /** the sender's cost per base unit at sending (its average cost, else the item's standard cost); null when unknown */
    unitCost: z.string().nullable(),
    /** sentQuantity × unitCost */
    sentValue: z.string().nullable(),
    /** what arrived, base unit (null while in transit) */
    receivedQuantity: z.string().nullable(),
    /** receivedQuantity − sentQuantity (null while in transit; negative: short, positive: more arrived) */
    difference: z.string().nullable(),
    /** difference × unitCost */
    differenceValue: z.string().nullable(),
  })
  .openapi('TransferLine');
export type TransferLine = z.output<typeof TransferLine>;

export const Transfer = z
  .object({
    id: z.string().openapi({ example: 'trf_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    fromLocationId: z.string(),
    toLocationId: z.string(),
    status: TransferStatus,
    note: z.string().nullable(),
    /** the receiver's note */
    receiveNote: z.string().nullable(),
    lines: z.array(TransferLine),
    sentAt: z.string(),
    receivedAt: z.string().nullable(),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Transfer');
export type Transfer = z.output<typeof Transfer>;

export const TransferListQuery = ListQuery.extend({
  /** transfers sent from or to this location */
  locationId: ref.optional(),
  status: TransferStatus.optional(),
  from: Timestamp.optional().openapi({ description: 'transfers sent at or after this time' }),
  updatedSince: Timestamp.optional(),
});

/** Transfers: GET/POST /transfers, GET /transfers/{id}, POST /transfers/{id}:receive */
export const inventoryTransfersOperations = {
  'GET /transfers': { query: TransferListQuery, response: listEnvelope(Transfer) },
  'POST /transfers': { body: TransferCreate, response: Transfer, status: 201 },
  'GET /transfers/{id}': { params: IdParam, response: Transfer },
  'POST /transfers/{id}:receive': { params: IdParam, body: TransferReceive, response: Transfer },
};
