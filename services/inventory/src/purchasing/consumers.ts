import { RECEIPT_RECORDED, ReceiptRecordedObject } from '@bop/contracts';
import { defineConsumer, type ConsumerDef } from '@bop/shared';
import { dec } from '../ledger/quantity';
import { bookReceipt } from './store';

/**
 * Purchase receipts (issue: "`:receive` … → inventory receipt movements and weighted-average cost"):
 * purchasing announces each receipt with `purchasing.receipt.recorded`; inventory books it once (the
 * kit records the event in `processed_events` in the posting's transaction).
 */
export const receiptConsumer = defineConsumer({
  name: 'purchase-receipts',
  topics: ['purchasing'],
  types: [RECEIPT_RECORDED],
  async handle(ctx) {
    await bookReceipt(ctx, parseReceipt(ctx.event));
  },
});

/** The event's object, or an error that parks it (a producer's bug: parked in dead_letters rather than dropped). */
function parseReceipt(event: { id: string; type: string; data: { object: unknown } }): ReceiptRecordedObject {
  const parsed = ReceiptRecordedObject.safeParse(event.data.object);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => i.path.join('.') || '(object)').join(', ');
    throw new Error(`${event.type} ${event.id}: data.object is not a ReceiptRecordedObject (${fields})`);
  }
  // the contract's lines carry something received: a quantity of zero or less is not a receipt
  const bad = parsed.data.lines.flatMap((l, i) => (dec(l.quantity).gt(0) ? [] : [`lines.${i}.quantity`]));
  if (bad.length > 0) throw new Error(`${event.type} ${event.id}: data.object is not a ReceiptRecordedObject (${bad.join(', ')} not > 0)`);
  return parsed.data;
}

export const purchasingConsumers: ConsumerDef[] = [receiptConsumer];
