import { z } from '../zod';
import { FieldError, IdParam, ListQuery, listEnvelope, Timestamp } from '../common';
import { SalesSummary } from './summaries';
import { SalesTransaction } from './transactions';

/** The review queue of records held because their business day is closed (spec: ingestion rule 7) */

const IsoDay = z.iso.date();

/**
 * `data.object` of `cash.business_day_closed` and of the internal `cash.business_day_reopened`
 * (cash service, supplement: Business day states). Sales keeps a replica of closed days from them.
 */
export const BusinessDayEventObject = z
  .object({
    locationId: z.string().min(1),
    businessDay: IsoDay.openapi({ example: '2026-11-20' }),
    status: z.enum(['closed', 'open']),
    closedAt: z.string().nullable().optional(),
    reopenedAt: z.string().nullable().optional(),
    /** newer state wins: an older event replayed later never overwrites it */
    updatedAt: z.iso.datetime({ offset: true }),
  })
  .openapi('BusinessDayEventObject');
export type BusinessDayEventObject = z.output<typeof BusinessDayEventObject>;

/** `new`: a record not stored yet; `change`: a re-send (e.g. a void) of a stored transaction or summary. */
export const SalesReviewItemKind = z.enum(['new', 'change']);
export const SalesReviewItemStatus = z.enum(['pending', 'accepted', 'rejected']);
/** What a held record is: a transaction (`POST /sales/transactions:batch`) or an ingested summary (`POST /sales-summaries`). */
export const SalesReviewRecordKind = z.enum(['transaction', 'summary']);

/** The held transaction as it will be stored when accepted (a SalesTransaction without bookkeeping). */
export const SalesReviewRecord = SalesTransaction.omit({ id: true, source: true, externalId: true, version: true, createdAt: true, updatedAt: true });

/** The held summary as it will be stored when accepted (an ingested SalesSummary without bookkeeping). */
export const SalesReviewSummaryRecord = SalesSummary.pick({
  locationId: true, periodStart: true, periodEnd: true, currency: true, grossSales: true, discounts: true, netSales: true, tax: true, transactions: true, guests: true, byChannel: true,
});

const reviewItemFields = {
  id: z.string().openapi({ example: 'rvi_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
  source: z.string(),
  externalId: z.string(),
  locationId: z.string(),
  /** the closed or affected business days: the record's (both when a summary's period spans two), and the stored one's when a change moves it */
  businessDays: z.array(z.string()),
  kind: SalesReviewItemKind,
  status: SalesReviewItemStatus,
  /** why it was held */
  reason: z.string(),
  /** the warnings of the batch result that held it */
  warnings: z.array(FieldError),
  decidedAt: z.string().nullable(),
  /** usr_… of the person who accepted or rejected it */
  decidedBy: z.string().nullable(),
  /** the note of an accept, the reason of a reject */
  decisionNote: z.string().nullable(),
  /** grows when a re-send replaces the held record; send it as If-Match to decide on what you saw */
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
};

export const SalesTransactionReviewItem = z
  .object({
    ...reviewItemFields,
    recordKind: z.literal('transaction'),
    /** the stored transaction a change applies to, or the id a new record gets when accepted (the batch result's id) */
    transactionId: z.string(),
    record: SalesReviewRecord,
  })
  .openapi('SalesTransactionReviewItem');

export const SalesSummaryReviewItem = z
  .object({
    ...reviewItemFields,
    recordKind: z.literal('summary'),
    /** the stored summary a change applies to, or the id a new summary gets when accepted (the batch result's id) */
    summaryId: z.string(),
    record: SalesReviewSummaryRecord,
  })
  .openapi('SalesSummaryReviewItem');

/** A held record, by `recordKind`. */
export const SalesReviewItem = z.discriminatedUnion('recordKind', [SalesTransactionReviewItem, SalesSummaryReviewItem]).openapi('SalesReviewItem');
export type SalesReviewItem = z.output<typeof SalesReviewItem>;

/** One item with the record as stored now (null while a new record waits), to compare before deciding. */
export const SalesReviewItemDetail = z
  .discriminatedUnion('recordKind', [
    SalesTransactionReviewItem.extend({ current: z.union([SalesTransaction, z.null()]) }).openapi('SalesTransactionReviewItemDetail'),
    SalesSummaryReviewItem.extend({ current: z.union([SalesSummary, z.null()]) }).openapi('SalesSummaryReviewItemDetail'),
  ])
  .openapi('SalesReviewItemDetail');
export type SalesReviewItemDetail = z.output<typeof SalesReviewItemDetail>;

export const SalesReviewItemListQuery = ListQuery.extend({
  status: SalesReviewItemStatus.default('pending'),
  locationId: z.string().min(1).max(64).optional(),
  source: z.string().min(1).max(100).optional(),
  recordKind: SalesReviewRecordKind.optional(),
  updatedSince: Timestamp.optional(),
});

export const SalesReviewAccept = z
  .strictObject({
    note: z.string().trim().min(1).max(1000).optional(),
  })
  .openapi('SalesReviewAccept');

export const SalesReviewReject = z
  .strictObject({
    reason: z.string().trim().min(1, 'Give the reason for rejecting.').max(1000),
  })
  .openapi('SalesReviewReject');

export const salesReviewOperations = {
  'GET /sales/review-items': { query: SalesReviewItemListQuery, response: listEnvelope(SalesReviewItem) },
  'GET /sales/review-items/{id}': { params: IdParam, response: SalesReviewItemDetail },
  'POST /sales/review-items/{id}:accept': { params: IdParam, body: SalesReviewAccept, response: SalesReviewItemDetail },
  'POST /sales/review-items/{id}:reject': { params: IdParam, body: SalesReviewReject, response: SalesReviewItemDetail },
};
