import type { PreStoreStep, PostStoreStep } from '../pipeline';

/** spec: ingestion rule 3 — fills each line's `itemId` from mappings and the item replica. (stub) */
export const matchItems: PreStoreStep = async () => {};

/** Puts unmatched POS items into the unmapped-items queue; `sales.unmapped_item` once per new POS item. (stub) */
export const recordUnmappedItems: PostStoreStep = async () => [];
