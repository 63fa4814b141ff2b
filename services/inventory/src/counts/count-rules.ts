import Decimal from 'decimal.js';
import type { StockCountItem, StockCountLine, StockCountStatus } from '@bop/contracts';
import type { FieldError } from '@bop/shared';
import { dec, formatNullable, formatQuantity, round6 } from '../ledger/quantity';

/** Clock skew a client's `countedAt` may have over ours before it counts as the future. */
export const COUNTED_AT_SKEW_MS = 60_000;

/** `countedAt` (default now) or the field error refusing it: a count records stock that was there, not stock to come. */
export function countedAtOf(sent: string | undefined, now: Date): { at: Date; error?: FieldError } {
  if (sent === undefined) return { at: now };
  const at = new Date(sent);
  if (at.getTime() > now.getTime() + COUNTED_AT_SKEW_MS) return { at, error: { path: 'countedAt', message: `Must not be in the future (now is ${now.toISOString()}).` } };
  return { at };
}

/** An item appears once per storage area (once without one): the same item in the same place twice is a typing slip, not a sum. */
export function duplicateLineErrors(lines: Array<{ itemId: string; storageAreaId?: string | null }>): FieldError[] {
  const seen = new Map<string, number>();
  const errors: FieldError[] = [];
  lines.forEach((l, i) => {
    const key = `${l.itemId}\u0000${l.storageAreaId ?? ''}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else errors.push({ path: `lines[${i}].itemId`, message: `Item ${l.itemId} is already counted ${l.storageAreaId ? `in storage area ${l.storageAreaId}` : 'without a storage area'} at lines[${first}].` });
  });
  return errors;
}

export interface CountedItem {
  itemId: string;
  /** Σ of its lines over the storage areas, base unit */
  counted: Decimal;
  /** the first line naming it (a field path for errors about the item) */
  firstLine: number;
}

/** Counted totals per item, in the order items first appear. */
export function countedTotals(lines: StockCountLine[]): CountedItem[] {
  const byItem = new Map<string, CountedItem>();
  lines.forEach((l, i) => {
    const c = byItem.get(l.itemId);
    if (c) c.counted = c.counted.plus(l.baseQuantity);
    else byItem.set(l.itemId, { itemId: l.itemId, counted: dec(l.baseQuantity), firstLine: i });
  });
  return [...byItem.values()];
}

/** One item's figures: variance = counted − expected, valued at `unitCost` when there is one. */
export function itemFigures(itemId: string, counted: Decimal, expected: Decimal, unitCost: Decimal.Value | null, movementId: string | null = null): StockCountItem {
  const variance = round6(counted.minus(expected));
  return {
    itemId,
    counted: formatQuantity(counted),
    expected: formatQuantity(expected),
    variance: formatQuantity(variance),
    unitCost: formatNullable(unitCost),
    varianceValue: unitCost === null ? null : formatQuantity(round6(variance.times(unitCost))),
    movementId,
  };
}

/** Σ of the variance values that are known. */
export function totalVarianceValue(items: StockCountItem[]): string {
  return formatQuantity(items.reduce((sum, i) => (i.varianceValue === null ? sum : sum.plus(i.varianceValue)), new Decimal(0)));
}

/**
 * Why a count in `status` cannot take `action` (supplement: Stock count states — only an open count
 * moves; posted and cancelled are final), or null when it can.
 */
export function transitionRefusal(count: { id: string; status: StockCountStatus; postedAt: Date | null; cancelledAt: Date | null }, action: 'post' | 'cancel'): string | null {
  if (count.status === 'open') return null;
  if (count.status === 'posted') {
    const when = count.postedAt ? ` at ${count.postedAt.toISOString()}` : '';
    return action === 'post'
      ? `Stock count ${count.id} was already posted${when}; a posted count is final.`
      : `Stock count ${count.id} was posted${when} and cannot be cancelled: a posted count is final; correct stock with an adjustment or a new count.`;
  }
  const when = count.cancelledAt ? ` at ${count.cancelledAt.toISOString()}` : '';
  return action === 'post'
    ? `Stock count ${count.id} was cancelled${when} and cannot be posted: a cancelled count is final; enter a new count.`
    : `Stock count ${count.id} was already cancelled${when}; a cancelled count is final.`;
}
