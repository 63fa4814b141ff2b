import { z } from '../zod';
import { Actor, ListQuery, listEnvelope, Timestamp } from '../common';

/**
 * `data.object` of inventory's `item.created` / `item.updated` events, as sales' item replica reads
 * it (the inventory service produces exactly this; extra fields are allowed and ignored).
 */
export const ItemEventObject = z.object({
  id: z.string().min(1).max(64).openapi({ example: 'itm_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
  sku: z.string().min(1).max(100).nullable(),
  barcodes: z.array(z.string().min(1).max(100)),
  externalId: z.string().min(1).max(200).nullable(),
  name: z.string().min(1).max(300),
  status: z.enum(['active', 'archived']),
  updatedAt: z.iso.datetime({ offset: true }),
});
export type ItemEventObject = z.output<typeof ItemEventObject>;

/**
 * `POST /internal/items:states` (inventory): the current state of items, for the read-through of
 * sales' item replica: by id (an invoice line naming an item sales has not replicated yet) or by the
 * references sales lines carry (externalId, SKU, barcode: a POS line naming an item just created).
 * An item matching any list is answered; what inventory does not know is simply absent. Each item is
 * the record as `item.*` events carry it.
 */
const refList = (max: number) => z.array(z.string().min(1).max(max)).max(2000).optional();
export const ItemStatesRequest = z
  .strictObject({ ids: refList(64), externalIds: refList(200), skus: refList(100), barcodes: refList(100) })
  .refine((q) => [q.ids, q.externalIds, q.skus, q.barcodes].some((l) => (l?.length ?? 0) > 0), { message: 'Name at least one id, externalId, sku or barcode.' });
export type ItemStatesRequest = z.output<typeof ItemStatesRequest>;
export const ItemStatesAnswer = z.object({ data: z.array(ItemEventObject) });
export type ItemStatesAnswer = z.output<typeof ItemStatesAnswer>;

/** Which line field identifies a POS item: the strongest reference the line carries (externalId, then SKU, then barcode). */
export const PosItemRefField = z.enum(['itemExternalId', 'itemSku', 'itemBarcode']);
export type PosItemRefField = z.output<typeof PosItemRefField>;

export const UnmappedItemStatus = z.enum(['open', 'mapped']);

/** One POS item of the unmapped-items queue (spec: ingestion rule 3); also `data.object` of `sales.unmapped_item`. */
export const SalesUnmappedItem = z
  .object({
    id: z.string().openapi({ example: 'umi_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    source: z.string(),
    /** the line field that identifies this POS item within its source, and its value */
    refField: PosItemRefField,
    refValue: z.string(),
    /** the references of the first line seen (a weaker one filled in when a later line carries it) */
    itemExternalId: z.string().nullable(),
    itemSku: z.string().nullable(),
    itemBarcode: z.string().nullable(),
    /** a few distinct line names seen, first seen first */
    sampleNames: z.array(z.string()),
    /** stored transactions (and online orders) carrying it unmatched; frozen once mapped */
    transactionCount: z.number().int(),
    /** occurredAt of the earliest and latest sale seen carrying it */
    firstSeenAt: z.string(),
    lastSeenAt: z.string(),
    /** locations it was sold at (those in your reach) */
    locationIds: z.array(z.string()),
    status: UnmappedItemStatus,
    /** the item it is mapped to (status `mapped`) */
    itemId: z.string().nullable(),
    /** open entries: the replica item its references match now (an item created since); confirm it with `:map` */
    suggestedItemId: z.string().nullable(),
    mappedAt: z.string().nullable(),
    mappedBy: Actor.nullable(),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('SalesUnmappedItem');
export type SalesUnmappedItem = z.output<typeof SalesUnmappedItem>;

export const SalesUnmappedItemListQuery = ListQuery.extend({
  source: z.string().min(1).max(100).optional(),
  status: UnmappedItemStatus.default('open'),
  locationId: z.string().min(1).max(64).optional(),
  updatedSince: Timestamp.optional(),
});

export const SalesUnmappedItemMapping = z.strictObject({
  unmappedItemId: z.string().min(1).max(64),
  itemId: z.string().min(1).max(64),
});

/** Body of `POST /sales/unmapped-items:map`: all or nothing. */
export const SalesUnmappedItemMapRequest = z
  .strictObject({
    mappings: z.array(SalesUnmappedItemMapping).min(1).max(100),
  })
  .openapi('SalesUnmappedItemMapRequest');

export const SalesUnmappedItemMapResult = z
  .object({
    /** the entries as they are now (status `mapped`) */
    mapped: z.array(SalesUnmappedItem),
    /** stored transactions whose lines now reference the item (each recorded again as `sales.transaction.recorded`) */
    transactionsRecalculated: z.number().int(),
    /** stored online orders whose lines now reference the item (no order event: their version and updatedAt move) */
    ordersRecalculated: z.number().int(),
  })
  .openapi('SalesUnmappedItemMapResult');

/** Unmapped POS items (GET /sales/unmapped-items) and mapping them to items (POST /sales/unmapped-items:map) */
export const salesItemOperations = {
  'GET /sales/unmapped-items': { query: SalesUnmappedItemListQuery, response: listEnvelope(SalesUnmappedItem) },
  'POST /sales/unmapped-items:map': { body: SalesUnmappedItemMapRequest, response: SalesUnmappedItemMapResult },
};
