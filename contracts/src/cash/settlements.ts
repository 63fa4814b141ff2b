import { z } from '../zod';
import { BatchResult, ListQuery, listEnvelope, Timestamp } from '../common';
import { BusinessDay, CashAmount, CashRef, LateReview, cashText } from './common';

/**
 * Settlements (`POST /cash/settlements`): a card processor's or delivery platform's payout for one
 * location — gross, fees, net (= gross − fees, else the record is rejected) — covering business days.
 * Matched to the expected tenders of those days: `card` payouts to card and digital-wallet tenders
 * (or the `tenderTypes` sent), `platform` payouts to platform tenders of that platform. Gross equal to
 * the expected total (to the cent) → `matched`; else `mismatched` with the difference and
 * `cash.settlement_mismatch`. Tender totals or sales arriving later for a covered day re-match it
 * (and raise the event when it turns mismatched). A payout for a closed day is stored and flagged.
 */
export const SettlementKind = z.enum(['card', 'platform']);
export const SettlementMatchStatus = z.enum(['matched', 'mismatched']);

export const SettlementInput = z
  .strictObject({
    externalId: z.string().trim().min(1).max(200),
    locationId: CashRef.optional(),
    locationExternalId: z.string().trim().min(1).max(200).optional(),
    kind: SettlementKind,
    /** the processor or platform (e.g. stripe, adyen, ubereats) */
    processor: cashText(100),
    /** for `platform` payouts: the platform name as tenders carry it (default: processor) */
    platform: cashText(100).nullable().optional(),
    /** the tender types a card payout covers (default card and digital_wallet) */
    tenderTypes: z.array(z.enum(['card', 'digital_wallet', 'gift_card', 'voucher', 'account', 'other'])).min(1).max(6).optional(),
    gross: CashAmount,
    fees: CashAmount,
    net: CashAmount,
    paidOn: BusinessDay.openapi({ description: 'the payout date' }),
    /** the business days it covers (each once) */
    businessDays: z.array(BusinessDay).min(1).max(62),
    reference: cashText(300).nullable().optional(),
  })
  .superRefine((r, ctx) => {
    if ((r.locationId === undefined) === (r.locationExternalId === undefined)) ctx.addIssue({ code: 'custom', path: ['locationId'], message: 'Send locationId or locationExternalId (one of them).' });
    if (r.kind === 'platform' && r.tenderTypes) ctx.addIssue({ code: 'custom', path: ['tenderTypes'], message: 'A platform payout covers platform tenders.' });
    if (r.kind === 'card' && r.platform) ctx.addIssue({ code: 'custom', path: ['platform'], message: 'Only a platform payout names a platform.' });
    const seen = new Set<string>();
    r.businessDays.forEach((d, i) => {
      if (seen.has(d)) ctx.addIssue({ code: 'custom', path: ['businessDays', i], message: 'Listed twice.' });
      seen.add(d);
    });
  })
  .openapi('SettlementInput');
export type SettlementInput = z.output<typeof SettlementInput>;

/** Body of `POST /cash/settlements`; each record is validated on its own. */
export const SettlementBatch = z
  .strictObject({
    source: z.string().trim().min(1).max(100).openapi({ description: 'a stable label per processor or platform feed', example: 'stripe-payouts' }),
    settlements: z.array(z.unknown()).min(1).max(100_000).openapi({ description: 'SettlementInput records; at most API_MAX_BATCH_SIZE (1,000 by default)' }),
  })
  .openapi('SettlementBatch');

export const Settlement = z
  .object({
    id: z.string().openapi({ example: 'stl_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    source: z.string(),
    externalId: z.string(),
    locationId: z.string(),
    kind: SettlementKind,
    processor: z.string(),
    platform: z.string().nullable(),
    tenderTypes: z.array(z.string()),
    gross: z.string(),
    fees: z.string(),
    net: z.string(),
    paidOn: z.string(),
    businessDays: z.array(z.string()),
    reference: z.string().nullable(),
    /** the covered days' expected tenders it is matched against */
    expectedGross: z.string(),
    /** gross − expected */
    difference: z.string(),
    matchStatus: SettlementMatchStatus,
    matchedAt: z.string(),
    lateReview: z.union([LateReview, z.null()]),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Settlement');
export type Settlement = z.output<typeof Settlement>;

export const SettlementListQuery = ListQuery.extend({
  locationId: CashRef.optional(),
  from: BusinessDay.optional().openapi({ description: 'paid on or after this day' }),
  matchStatus: SettlementMatchStatus.optional(),
  updatedSince: Timestamp.optional(),
});

export const cashSettlementsOperations = {
  'POST /cash/settlements': { body: SettlementBatch, response: BatchResult, status: 202 },
  'GET /cash/settlements': { query: SettlementListQuery, response: listEnvelope(Settlement) },
};
