import { hash } from 'node:crypto';
import type { SalesTransactionInput } from '@bop/contracts';
import { businessDayOf } from '@bop/shared';
import { formatMoney, formatQuantity } from './money';
import { lineTotal } from './totals';

export interface LocationRef {
  id: string;
  timezone: string;
  businessDayCutoff: string;
}

export interface StoredLine {
  itemSku: string | null;
  itemBarcode: string | null;
  itemExternalId: string | null;
  /** filled when the item is matched (spec: ingestion rule 3); never part of the content hash */
  itemId: string | null;
  name: string | null;
  quantity: string;
  unitPrice: string;
  discount: string;
  tax: string;
  lineTotal: string;
}

export interface StoredTender {
  type: string;
  amount: string;
  change: string | null;
  platform: string | null;
}

/** A record ready to upsert: the camelCase fields of the `SalesTransaction` entity, minus id/source/externalId/version/timestamps. */
export interface NormalizedTransaction {
  locationId: string;
  /** ISO 8601 UTC with milliseconds */
  occurredAt: string;
  businessDay: string;
  type: 'sale' | 'refund';
  status: 'completed' | 'voided';
  channel: string | null;
  registerId: string | null;
  employeeExternalId: string | null;
  lines: StoredLine[];
  tenders: StoredTender[];
  subtotal: string;
  tax: string;
  total: string;
  currency: string;
  refundOf: string | null;
  /** sha256 hex of the canonical content (see `contentHashOf`) */
  contentHash: string;
}

/**
 * Canonical stored form of a schema-valid record: money at least to the currency's minor units
 * ("10.5" → "10.50"), quantities without trailing zeros ("1.0" → "1"), absent optionals as null,
 * occurredAt as `toISOString()`. Same content ⇒ same hash, whatever the key order or decimal spelling.
 */
export function normalizeTransaction(input: SalesTransactionInput, location: LocationRef, opts: { lineTotals?: boolean } = {}): NormalizedTransaction {
  const cur = input.currency;
  const money = (v: string) => formatMoney(v, cur);
  const occurredAt = new Date(input.occurredAt).toISOString();
  // object literals of one fixed shape, no spreads: this runs for every ingested record
  const lines: StoredLine[] = input.lines.map((l) => {
    const line: StoredLine = {
      itemSku: l.itemSku ?? null,
      itemBarcode: l.itemBarcode ?? null,
      itemExternalId: l.itemExternalId ?? null,
      itemId: null,
      name: l.name ?? null,
      quantity: formatQuantity(l.quantity),
      unitPrice: money(l.unitPrice),
      discount: money(l.discount),
      tax: money(l.tax),
      lineTotal: '',
    };
    // the batch leaves them to its arithmetic step (which computes them anyway), see fillLineTotals
    if (opts.lineTotals !== false) line.lineTotal = lineTotal(line, cur);
    return line;
  });
  const n: NormalizedTransaction = {
    locationId: location.id,
    occurredAt,
    businessDay: businessDayOf(occurredAt, location.timezone, location.businessDayCutoff),
    type: input.type,
    status: input.status,
    channel: input.channel ?? null,
    registerId: input.registerId ?? null,
    employeeExternalId: input.employeeExternalId ?? null,
    lines,
    tenders: input.tenders.map((t) => ({
      type: t.type,
      amount: money(t.amount),
      change: t.change === undefined ? null : money(t.change),
      platform: t.platform ?? null,
    })),
    subtotal: money(input.subtotal),
    tax: money(input.tax),
    total: money(input.total),
    currency: cur,
    refundOf: input.refundOf ?? null,
    contentHash: '',
  };
  n.contentHash = contentHashOf(n);
  return n;
}

/** Sets each line's lineTotal from the totals `checkTransaction` computed (same order as the lines). */
export function fillLineTotals(n: NormalizedTransaction, totals: string[]): void {
  n.lines.forEach((line, i) => {
    line.lineTotal = totals[i];
  });
}

/** What the hash covers: everything sent except the key (source, externalId); nothing derived (businessDay, itemId, lineTotal). */
export type HashedContent = Omit<NormalizedTransaction, 'businessDay' | 'contentHash' | 'lines'> & { lines: Array<Omit<StoredLine, 'itemId' | 'lineTotal'>> };

export function contentHashOf(c: HashedContent): string {
  // positional arrays in a fixed order: canonical whatever the key order sent, and cheap (hot path)
  const canonical = [
    c.locationId, c.occurredAt, c.type, c.status, c.channel, c.registerId, c.employeeExternalId,
    c.lines.map((l) => [l.itemSku, l.itemBarcode, l.itemExternalId, l.name, l.quantity, l.unitPrice, l.discount, l.tax]),
    c.tenders.map((t) => [t.type, t.amount, t.change, t.platform]),
    c.subtotal, c.tax, c.total, c.currency, c.refundOf,
  ];
  return hash('sha256', JSON.stringify(canonical));
}

/** The `sales.transactions` columns of a normalized record (snake_case, for a set-based upsert); id/version/created_at/updated_at are the caller's. */
/** The stored row of `sales.transactions` (snake_case columns) besides id, source, external_id, hash and bookkeeping. */
export function transactionRow(n: NormalizedTransaction) {
  return {
    location_id: n.locationId,
    occurred_at: n.occurredAt,
    business_day: n.businessDay,
    type: n.type,
    status: n.status,
    channel: n.channel,
    register_id: n.registerId,
    employee_external_id: n.employeeExternalId,
    subtotal: n.subtotal,
    tax: n.tax,
    total: n.total,
    currency: n.currency,
    refund_of: n.refundOf,
    lines: n.lines,
    tenders: n.tenders,
  };
}

/** The full column set of one row, jsonb columns as JSON text (for direct inserts). */
export function transactionColumns(source: string, externalId: string, n: NormalizedTransaction) {
  const row = transactionRow(n);
  return { source, external_id: externalId, ...row, lines: JSON.stringify(row.lines), tenders: JSON.stringify(row.tenders), content_hash: n.contentHash };
}
