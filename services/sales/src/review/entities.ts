import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { FieldError } from '@bop/shared';
import type { TransactionRow } from '../transactions/pipeline';
import type { IngestedSummaryRow } from '../summaries/summary-rules';

/** What a held record is: a transaction of `POST /sales/transactions:batch` or a summary of `POST /sales-summaries`. */
export type ReviewRecordKind = 'transaction' | 'summary';

/** Replica of cash's business days, fed by cash.business_day_closed / cash.business_day_reopened (consumers.ts). */
export const SalesClosedDay = defineEntity({
  name: 'SalesClosedDay',
  tableName: 'closed_days',
  properties: {
    locationId: p.string().primary(),
    businessDay: p.date().primary(),
    /** `closed` locks the day's figures (spec: ingestion rule 7); `open` after a reopen */
    status: p.string(),
    closedAt: p.datetime().nullable(),
    reopenedAt: p.datetime().nullable(),
    updatedAt: p.datetime(),
  },
});
export type SalesClosedDay = InferEntity<typeof SalesClosedDay>;

/**
 * A record held because its business day (or the stored record's) is closed: the row it would write
 * waits here until a person accepts (applied to sales.transactions or sales.summaries, by
 * `recordKind`) or rejects it.
 */
export const SalesReviewItemEntity = defineEntity({
  name: 'SalesReviewItem',
  tableName: 'review_items',
  properties: {
    id: p.string().primary(),
    source: p.string(),
    externalId: p.string(),
    recordKind: p.string().$type<ReviewRecordKind>(),
    /** the stored transaction or summary a change applies to, or the id a new record gets when accepted */
    recordId: p.string(),
    locationId: p.string(),
    businessDay: p.date(),
    /** the stored record's day when a change moves it to another day */
    previousBusinessDay: p.date().nullable(),
    /** every affected business day (YYYY-MM-DD): the record's and the stored record's */
    businessDays: p.json<string[]>(),
    kind: p.string(),
    /** the row as the batch's upsert would write it: a TransactionRow or an IngestedSummaryRow, by `recordKind` */
    row: p.json<TransactionRow | IngestedSummaryRow>(),
    contentHash: p.string(),
    status: p.string(),
    reason: p.text(),
    warnings: p.json<FieldError[]>(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    decidedAt: p.datetime().nullable(),
    decidedBy: p.string().nullable(),
    decisionNote: p.text().nullable(),
  },
});
export type SalesReviewItemEntity = InferEntity<typeof SalesReviewItemEntity>;

export const reviewEntities = [SalesClosedDay, SalesReviewItemEntity] as const;
