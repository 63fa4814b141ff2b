import type { Flow } from './store';

/**
 * Usage, per item, location and business day, from the stock flows (changes of on hand, valued as the
 * ledger values them):
 *
 * - theoretical usage = −sale: what the sales should have taken by their recipes (the depletion of
 *   sales, refunds and voids);
 * - actual usage = opening stock + receipts + transfers in − transfers out + opening balances −
 *   shipments − closing stock. The ledger's stock moves by every flow, so this is
 *   −(sale + waste + count + adjustment): what the sales took, what was wasted, what counts found
 *   missing (or in excess) and what was adjusted as lost, damaged or found. Over a period between
 *   two counts it is exactly opening count + receipts ± transfers − closing count.
 *
 * Opening balances (stock first recorded), receipts, transfers and sales-order shipments move stock
 * without using it.
 */
export const USED: ReadonlySet<Flow> = new Set<Flow>(['sale', 'waste', 'count', 'adjustment']);
