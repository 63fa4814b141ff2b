import type { SalesReviewItem, SalesReviewItemDetail } from '@bop/contracts';
import { transactionDto } from '../transactions/dto';
import { formatMoney } from '../transactions/money';
import type { SalesTransaction } from '../transactions/entities';
import type { TransactionRow } from '../transactions/pipeline';
import type { IngestedSummaryRow } from '../summaries/summary-rules';
import { formatAmount } from '../summaries/summary-rules';
import { summaryEntityDto } from '../summaries/dto';
import type { SalesSummaryEntity } from '../summaries/entities';
import type { SalesReviewItemEntity } from './entities';

type TransactionItem = Extract<SalesReviewItem, { recordKind: 'transaction' }>;
type SummaryItem = Extract<SalesReviewItem, { recordKind: 'summary' }>;

/** The held row (snake_case, as the upsert would write it) as the API shows a transaction. */
export function reviewRecordDto(r: TransactionRow): TransactionItem['record'] {
  return {
    locationId: r.location_id,
    occurredAt: new Date(r.occurred_at).toISOString(),
    businessDay: r.business_day,
    type: r.type,
    status: r.status,
    channel: r.channel,
    registerId: r.register_id,
    employeeExternalId: r.employee_external_id,
    lines: r.lines,
    tenders: r.tenders as TransactionItem['record']['tenders'],
    subtotal: formatMoney(r.subtotal, r.currency),
    tax: formatMoney(r.tax, r.currency),
    total: formatMoney(r.total, r.currency),
    currency: r.currency,
    refundOf: r.refund_of,
  };
}

/** The held row of an ingested summary as the API shows a summary. */
export function reviewSummaryRecordDto(r: IngestedSummaryRow): SummaryItem['record'] {
  const money = (v: string) => formatAmount(v, r.currency);
  return {
    locationId: r.location_id,
    periodStart: new Date(r.period_start).toISOString(),
    periodEnd: new Date(r.period_end).toISOString(),
    currency: r.currency,
    grossSales: money(r.gross_sales),
    discounts: money(r.discounts),
    netSales: money(r.net_sales),
    tax: money(r.tax),
    transactions: r.transactions,
    guests: r.guests,
    byChannel: r.by_channel.map((c) => ({ channel: c.channel, netSales: money(c.netSales), transactions: c.transactions })),
  };
}

export function reviewItemDto(i: SalesReviewItemEntity): SalesReviewItem {
  const fields = {
    id: i.id,
    source: i.source,
    externalId: i.externalId,
    locationId: i.locationId,
    businessDays: [...new Set(i.businessDays.length > 0 ? i.businessDays : [i.businessDay, ...(i.previousBusinessDay ? [i.previousBusinessDay] : [])])].sort(),
    kind: i.kind as SalesReviewItem['kind'],
    status: i.status as SalesReviewItem['status'],
    reason: i.reason,
    warnings: i.warnings,
    decidedAt: i.decidedAt ? i.decidedAt.toISOString() : null,
    decidedBy: i.decidedBy ?? null,
    decisionNote: i.decisionNote ?? null,
    version: i.version,
    createdAt: i.createdAt.toISOString(),
    updatedAt: i.updatedAt.toISOString(),
  };
  if (i.recordKind === 'summary') return { ...fields, recordKind: 'summary', summaryId: i.recordId, record: reviewSummaryRecordDto(i.row as IngestedSummaryRow) };
  return { ...fields, recordKind: 'transaction', transactionId: i.recordId, record: reviewRecordDto(i.row as TransactionRow) };
}

/** The item with the record as stored now: a transaction or a summary, by the item's record kind. */
export type CurrentRecord = { kind: 'transaction'; value: SalesTransaction | null } | { kind: 'summary'; value: SalesSummaryEntity | null };

export function reviewItemDetailDto(i: SalesReviewItemEntity, current: CurrentRecord): SalesReviewItemDetail {
  const item = reviewItemDto(i);
  if (item.recordKind === 'summary') return { ...item, current: current.kind === 'summary' && current.value ? summaryEntityDto(current.value) : null };
  return { ...item, current: current.kind === 'transaction' && current.value ? transactionDto(current.value) : null };
}
