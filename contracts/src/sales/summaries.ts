import { z } from '../zod';
import { BatchResult, IdParam, ListQuery, Timestamp, listEnvelope } from '../common';
import { SalesCurrency, SalesDecimal, utcTimestamp } from './transactions';

/** externalIds starting with this are the keys of the summaries the service builds (spec: ingestion rule 9); a source may not send them. */
export const BUILT_SUMMARY_KEY_PREFIX = 'built:';

/** A UTC instant (`Z` or `+00:00`), as the spec asks of every ingested timestamp. */
const UtcInstant = utcTimestamp('Send timestamps in UTC (Z or +00:00).');

const Count = z.number({ error: 'Must be a whole number.' }).int('Must be a whole number.').min(0, 'Must be zero or more.').max(100_000_000);

export const SalesSummaryChannelInput = z.strictObject({
  channel: z.string().trim().min(1).max(40).openapi({ example: 'in_store' }),
  netSales: SalesDecimal,
  transactions: Count,
});

/**
 * One record of `POST /sales-summaries` (spec: Sales summary (ingested)), as sent. The arithmetic
 * (netSales = grossSales − discounts; byChannel adding up) is the service's check, per record.
 */
export const SalesSummaryInput = z
  .strictObject({
    externalId: z
      .string()
      .min(1)
      .max(200)
      .refine((id) => !id.startsWith(BUILT_SUMMARY_KEY_PREFIX), { message: `externalIds starting with "${BUILT_SUMMARY_KEY_PREFIX}" are reserved for the summaries the service builds.` })
      .openapi({ description: 'an hour or day label', example: '2026-11-20' }),
    locationId: z.string().min(1).max(64).optional(),
    locationExternalId: z.string().min(1).max(200).optional(),
    periodStart: UtcInstant,
    periodEnd: UtcInstant,
    grossSales: SalesDecimal.openapi({ description: 'before discounts, tax excluded; refunds subtract' }),
    discounts: SalesDecimal.default('0'),
    netSales: SalesDecimal.openapi({ description: 'grossSales − discounts' }),
    tax: SalesDecimal,
    transactions: Count.openapi({ description: 'completed sales in the period (refunds not counted)' }),
    guests: Count.nullable().optional(),
    /** optional: the spec's summary has no currency; figures are then checked to 2 decimals */
    currency: SalesCurrency.optional(),
    byChannel: z.array(SalesSummaryChannelInput).max(50).optional(),
  })
  .superRefine((s, ctx) => {
    // spec: ingestion rule 2
    if ((s.locationId === undefined) === (s.locationExternalId === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['locationId'], message: 'Send exactly one of locationId or locationExternalId.' });
    }
    if (Date.parse(s.periodEnd) <= Date.parse(s.periodStart)) {
      ctx.addIssue({ code: 'custom', path: ['periodEnd'], message: 'periodEnd must be after periodStart.' });
    }
    const seen = new Set<string>();
    s.byChannel?.forEach((c, i) => {
      if (seen.has(c.channel)) ctx.addIssue({ code: 'custom', path: ['byChannel', i, 'channel'], message: `Channel ${c.channel} appears twice.` });
      seen.add(c.channel);
    });
  })
  .openapi('SalesSummaryInput');
export type SalesSummaryInput = z.output<typeof SalesSummaryInput>;

/** Body of `POST /sales-summaries`; each record is validated on its own (per-record results). */
export const SalesSummaryBatch = z
  .strictObject({
    source: z.string().trim().min(1).max(100).openapi({ description: 'a stable label per system and location', example: 'pos-store-12' }),
    summaries: z.array(z.unknown()).min(1).max(100_000).openapi({ description: 'SalesSummaryInput records; at most API_MAX_BATCH_SIZE (1,000 by default)' }),
  })
  .openapi('SalesSummaryBatch');

export const SalesSummaryOrigin = z.enum(['ingested', 'built']);

export const SalesSummaryChannel = z.object({ channel: z.string(), netSales: z.string(), transactions: z.number().int() });

export const SalesSummary = z
  .object({
    id: z.string().openapi({ example: 'ssm_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    source: z.string(),
    /** sent by the source (`ingested`) or built by the service from the source's transactions (`built`, spec: ingestion rule 9) */
    origin: SalesSummaryOrigin,
    /** the label sent; `day:<businessDay>` for built summaries */
    externalId: z.string(),
    locationId: z.string(),
    /** the business day of a built summary; null for ingested ones */
    businessDay: z.string().nullable().openapi({ example: '2026-11-20' }),
    periodStart: z.string(),
    periodEnd: z.string(),
    currency: z.string().nullable(),
    grossSales: z.string(),
    discounts: z.string(),
    netSales: z.string(),
    tax: z.string(),
    transactions: z.number().int(),
    guests: z.number().int().nullable(),
    byChannel: z.array(SalesSummaryChannel),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('SalesSummary');
export type SalesSummary = z.output<typeof SalesSummary>;

export const SalesSummaryListQuery = ListQuery.extend({
  locationId: z.string().min(1).max(64).optional(),
  source: z.string().min(1).max(100).optional(),
  origin: SalesSummaryOrigin.optional(),
  from: Timestamp.optional().openapi({ description: 'summaries whose periodStart is at or after this time' }),
  to: Timestamp.optional().openapi({ description: 'summaries whose periodStart is before this time' }),
  updatedSince: Timestamp.optional(),
}).superRefine((q, ctx) => {
  if (q.from && q.to && Date.parse(q.to) <= Date.parse(q.from)) ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must be after from.' });
});

export const salesSummaryOperations = {
  'POST /sales-summaries': { body: SalesSummaryBatch, response: BatchResult, status: 202 },
  'GET /sales-summaries': { query: SalesSummaryListQuery, response: listEnvelope(SalesSummary) },
  'GET /sales-summaries/{id}': { params: IdParam, response: SalesSummary },
};
