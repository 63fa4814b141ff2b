import { z } from '../zod';
import { ListQuery, listEnvelope, Timestamp } from '../common';

/**
 * What the insights engine recommends: `reorder` (stock runs out before the next delivery),
 * `supplier_price_rise` (a supplier's price rose beyond the threshold), `usage_variance` (an item whose
 * actual usage departs most from what the sales explain), `staffing` (a day to come whose published shifts are
 * over- or under-staffed, hour by hour, against the hours the forecast needs).
 */
export const RecommendationKind = z.enum(['reorder', 'supplier_price_rise', 'usage_variance', 'staffing']);
export type RecommendationKind = z.output<typeof RecommendationKind>;

/** `open` while its situation lasts; `resolved` once the engine no longer finds it. */
export const RecommendationStatus = z.enum(['open', 'resolved']);

/** A recommended action (also `data.object` of `recommendation.created`). */
export const Recommendation = z
  .object({
    id: z.string().openapi({ example: 'rec_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    kind: RecommendationKind,
    status: RecommendationStatus,
    locationId: z.string(),
    itemId: z.string().nullable(),
    supplierId: z.string().nullable(),
    /** why, in words, with the figures */
    reasoning: z.string().openapi({ example: 'Lemons at NYC-1: 12 on hand, 4 a day used over the last 14 days: 3 days of stock; the next delivery is in 5 days (2026-12-03). Order at least 8.' }),
    /** the figures the reasoning used (decimal strings, dates, day counts; null where one does not apply) */
    figures: z.record(z.string(), z.string().nullable()),
    createdAt: z.string(),
    resolvedAt: z.string().nullable(),
  })
  .openapi('Recommendation');
export type Recommendation = z.output<typeof Recommendation>;

export const RecommendationListQuery = ListQuery.extend({
  locationId: z.string().min(1).max(64).optional().openapi({ description: 'only this location (default: every location within your reach)' }),
  kind: RecommendationKind.optional(),
  status: RecommendationStatus.optional().openapi({ description: 'default: open' }),
  updatedSince: Timestamp.optional(),
});

export const recommendationOperations = {
  'GET /recommendations': { query: RecommendationListQuery, response: listEnvelope(Recommendation) },
};
