import type Decimal from 'decimal.js';
import type { TransferLine, TransferStatus } from '@bop/contracts';
import type { FieldError } from '@bop/shared';
import { dec, formatNullable, formatQuantity, round6 } from '../ledger/quantity';

/** Each item once per transfer (the receiver answers per item). */
export function duplicateItemErrors(lines: Array<{ itemId: string }>): FieldError[] {
  const seen = new Map<string, number>();
  const errors: FieldError[] = [];
  lines.forEach((l, i) => {
    const first = seen.get(l.itemId);
    if (first === undefined) seen.set(l.itemId, i);
    else errors.push({ path: `lines[${i}].itemId`, message: `Item ${l.itemId} is already at lines[${first}]; send each item once.` });
  });
  return errors;
}

/** A sent line: what left the sender and at what cost per base unit. */
export function sentLine(input: { itemId: string; quantity: string; unitId?: string | null }, base: Decimal, unitCost: string | null): TransferLine {
  return {
    itemId: input.itemId,
    quantity: formatQuantity(input.quantity),
    unitId: input.unitId ?? null,
    sentQuantity: formatQuantity(base),
    unitCost,
    sentValue: unitCost === null ? null : formatQuantity(round6(base.times(unitCost))),
    receivedQuantity: null,
    difference: null,
    differenceValue: null,
  };
}

/**
 * Matches the receiver's answers to the sent lines: every sent item answered once (recommended
 * reading of the spec: a receipt that skips an item would book nothing for it and hide the loss),
 * and nothing that was not sent. Answers `received[i]` per sent line, or the field errors.
 */
export function matchReceipt(sent: TransferLine[], answers: Array<{ itemId: string }>): { order: number[]; errors: FieldError[] } {
  const errors = duplicateItemErrors(answers);
  const sentIndex = new Map(sent.map((l, i) => [l.itemId, i]));
  const answerOf = new Map<string, number>();
  answers.forEach((a, i) => {
    if (!sentIndex.has(a.itemId)) errors.push({ path: `lines[${i}].itemId`, message: `Item ${a.itemId} was not sent on this transfer.` });
    else if (!answerOf.has(a.itemId)) answerOf.set(a.itemId, i);
  });
  const missing = sent.filter((l) => !answerOf.has(l.itemId));
  if (missing.length > 0) {
    errors.push({ path: 'lines', message: `Answer every item sent; missing: ${missing.map((l) => l.itemId).join(', ')} (send receivedQuantity "0" for what did not arrive).` });
  }
  return { order: sent.map((l) => answerOf.get(l.itemId) ?? -1), errors };
}

/** A sent line with what arrived: the difference (received − sent) and its value at the sending cost. */
export function receivedLine(line: TransferLine, received: Decimal): TransferLine {
  const difference = round6(received.minus(line.sentQuantity));
  return {
    ...line,
    receivedQuantity: formatQuantity(received),
    difference: formatQuantity(difference),
    differenceValue: line.unitCost === null ? null : formatNullable(round6(difference.times(line.unitCost))),
  };
}

/** supplement: received when every received quantity equals the sent one, else received_with_discrepancy. */
export function receivedStatus(lines: TransferLine[]): TransferStatus {
  return lines.every((l) => l.difference !== null && dec(l.difference).isZero()) ? 'received' : 'received_with_discrepancy';
}

/** Why a transfer in `status` cannot be received (only in_transit moves; both received states are final), or null. */
export function receiveRefusal(t: { id: string; status: TransferStatus; receivedAt: Date | null }): string | null {
  if (t.status === 'in_transit') return null;
  const when = t.receivedAt ? ` at ${t.receivedAt.toISOString()}` : '';
  return `Transfer ${t.id} was already received${when} (status ${t.status}); a received transfer is final: correct stock with an adjustment.`;
}
