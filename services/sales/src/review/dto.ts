import type { SalesReviewItem, SalesReviewItemDetail } from '@bop/contracts';
import { transactionDto } from '../dto';
import { formatMoney } from '../domain/money';
import type { SalesTransaction } from '../entities';
import type { TransactionRow } from '../pipeline';
import type { SalesReviewItemEntity } from './entities';

/** The held row (snake_case, as the upsert would write it) as the API shows a transaction. */
export function reviewRecordDto(r: TransactionRow): SalesReviewItem['record'] {
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
    tenders: r.tenders as SalesReviewItem['record']['tenders'],
    subtotal: formatMoney(r.subtotal, r.currency),
    tax: formatMoney(r.tax, r.currency),
    total: formatMoney(r.total, r.currency),
    currency: r.currency,
    refundOf: r.refund_of,
  };
}

export function reviewItemDto(i: SalesReviewItemEntity): SalesReviewItem {
  return {
    id: i.id,
    source: i.source,
    externalId: i.externalId,
    transactionId: i.transactionId,
    locationId: i.locationId,
    businessDays: [...new Set([i.businessDay, ...(i.previousBusinessDay ? [i.previousBusinessDay] : [])])].sort(),
    kind: i.kind as SalesReviewItem['kind'],
    status: i.status as SalesReviewItem['status'],
    reason: i.reason,
    warnings: i.warnings,
    record: reviewRecordDto(i.row),
    decidedAt: i.decidedAt ? i.decidedAt.toISOString() : null,
    decidedBy: i.decidedBy ?? null,
    decisionNote: i.decisionNote ?? null,
    version: i.version,
    createdAt: i.createdAt.toISOString(),
    updatedAt: i.updatedAt.toISOString(),
  };
}

export function reviewItemDetailDto(i: SalesReviewItemEntity, current: SalesTransaction | null): SalesReviewItemDetail {
  return { ...reviewItemDto(i), current: current ? transactionDto(current) : null };
}
