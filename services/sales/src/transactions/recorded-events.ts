import { chunks, type IngestEvent } from '@bop/shared';
import type { TransactionRow } from './pipeline';

/**
 * The record as consumers (inventory, cash, insights) read it from `sales.transactions.recorded`:
 * every line and tender. Compact, for the bus carries every sale: source and location are the
 * event's (`data.object.source`, `.locationId`), and fields that are null are left out (absent =
 * null) — a line names only the item references it has, a tender its change and platform when set.
 */
export function recordedObject(id: string, externalId: string, r: TransactionRow, version: number) {
  const o: Record<string, unknown> = {
    id,
    externalId,
    version,
    occurredAt: r.occurred_at,
    businessDay: r.business_day,
    type: r.type,
    status: r.status,
    lines: r.lines.map(compactLine),
    tenders: r.tenders.map(compactTender),
    subtotal: r.subtotal,
    tax: r.tax,
    total: r.total,
    currency: r.currency,
  };
  if (r.channel !== null) o.channel = r.channel;
  if (r.register_id !== null) o.registerId = r.register_id;
  if (r.employee_external_id !== null) o.employeeExternalId = r.employee_external_id;
  if (r.refund_of !== null) o.refundOf = r.refund_of;
  return o;
}

function compactLine(l: TransactionRow['lines'][number]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (l.itemId !== null) o.itemId = l.itemId;
  if (l.itemSku !== null) o.itemSku = l.itemSku;
  if (l.itemBarcode !== null) o.itemBarcode = l.itemBarcode;
  if (l.itemExternalId !== null) o.itemExternalId = l.itemExternalId;
  if (l.name !== null) o.name = l.name;
  o.quantity = l.quantity;
  o.unitPrice = l.unitPrice;
  o.discount = l.discount;
  o.tax = l.tax;
  o.lineTotal = l.lineTotal;
  return o;
}

function compactTender(t: TransactionRow['tenders'][number]): Record<string, unknown> {
  const o: Record<string, unknown> = { type: t.type, amount: t.amount };
  if (t.change !== null) o.change = t.change;
  if (t.platform !== null) o.platform = t.platform;
  return o;
}

/** Transactions per `sales.transactions.recorded` event: one bus message stays far below Kafka's 1 MB default. */
export const RECORDED_CHUNK = 200;

/**
 * The internal events consumers (inventory, cash, insights) read written transactions from: every
 * line and tender, grouped per location — the message key, so one location's sales stay in order —
 * in chunks (one event per record would cost more than the record itself at 10,000 records/s).
 * Each transaction carries its `version`: a consumer applies it only when newer than what it holds.
 */
export function transactionEvents(
  source: string,
  written: Array<{ id: string; externalId: string; row: TransactionRow; version: number }>,
  reason: 'ingested' | 'items_mapped' | 'review_accepted',
): Array<IngestEvent & { aggregateType: string; aggregateId: string }> {
  const byLocation = new Map<string, typeof written>();
  for (const w of written) {
    const list = byLocation.get(w.row.location_id) ?? [];
    list.push(w);
    byLocation.set(w.row.location_id, list);
  }
  const events: Array<IngestEvent & { aggregateType: string; aggregateId: string }> = [];
  for (const [locationId, list] of byLocation) {
    for (const chunk of chunks(list, RECORDED_CHUNK)) {
      const transactions = chunk.map((w) => recordedObject(w.id, w.externalId, w.row, w.version));
      events.push({ type: 'sales.transactions.recorded', aggregateType: 'location', aggregateId: locationId, locationId, object: { source, locationId, reason, transactions } });
    }
  }
  return events;
}
