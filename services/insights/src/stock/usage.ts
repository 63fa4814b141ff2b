import type { StockMovementType } from '@bop/contracts';

/** The flows insights sums a movement type into (reservations and releases move no stock). */
export type Flow = 'sale' | 'waste' | 'count' | 'adjustment' | 'opening' | 'receipt' | 'transfer_in' | 'transfer_out' | 'shipment';

/** The flow of a movement: the depletion of sales (sale, refund, void reversal) is one; opening balances are stock that arrives, not found stock. */
export function flowOf(type: StockMovementType, reason: string | null): Flow | null {
  switch (type) {
    case 'sale':
    case 'refund':
    case 'void_reversal':
      return 'sale';
    case 'count_variance':
      return 'count';
    case 'adjustment':
      return reason === 'opening_balance' ? 'opening' : 'adjustment';
    case 'waste':
    case 'receipt':
    case 'transfer_in':
    case 'transfer_out':
    case 'shipment':
      return type;
    default:
      return null;
  }
}


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
