import type { EntityManager, IngestEvent } from '@bop/shared';

/** How a sales line or order line names its item (spec: ingestion rule 3: any one matches). */
export interface ItemRef {
  itemSku?: string | null;
  itemBarcode?: string | null;
  itemExternalId?: string | null;
}

/**
 * The item id each ref matches for `source` (explicit mappings from `unmapped-items:map` first,
 * then the item replica by externalId, SKU, barcode), or null. Same order as `refs`.
 * Used by the transaction batch step and by online orders.
 */
export async function resolveItemRefs(_em: EntityManager, _source: string, refs: ItemRef[]): Promise<Array<string | null>> {
  return refs.map(() => null);
}

/** One unmatched line seen in a stored record (transaction or order). */
export interface UnmatchedLine extends ItemRef {
  name?: string | null;
}

/**
 * Enters the unmatched POS items of one or more stored records into the unmapped-items queue
 * (counts, first/last seen, sample names) and answers the `sales.unmapped_item` events for POS items
 * that were not yet in the queue (once per new POS item). `records` carry what each stored record
 * now has unmatched and what it had before (for exact counts on updates).
 */
export async function recordUnmatched(
  _em: EntityManager,
  _source: string,
  _records: Array<{ recordId: string; locationId: string; seenAt: string; lines: UnmatchedLine[]; before: UnmatchedLine[] | null }>,
): Promise<Array<IngestEvent & { aggregateType: string; aggregateId: string }>> {
  return [];
}
