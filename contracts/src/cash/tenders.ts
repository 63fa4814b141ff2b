import { z } from '../zod';
import { BatchResult } from '../common';
import { BusinessDay, CashRef, CashTenderType, ExpectedSource, LateReview, SignedCashAmount, cashText } from './common';

/**
 * Tender totals (`POST /cash/tenders`): what a POS or back office says was taken per drawer (or
 * shift) and tender type on a business day. Which wins: for a location, business day and tender type
 * (with its platform), once any tender total was sent, the tender totals are the expected amounts and
 * the sales-derived ones of that tender type are not used (the POS's own drawer totals include what
 * never was a sale: paid-outs, no-sale drawer openings); otherwise the expected amounts come from sales.
 */
export const TenderTotalInput = z
  .strictObject({
    externalId: z.string().trim().min(1).max(200),
    locationId: CashRef.optional(),
    locationExternalId: z.string().trim().min(1).max(200).optional(),
    /** the business day it belongs to; or `closedAt` (UTC), assigned by the location's cut-off */
    businessDay: BusinessDay.optional(),
    closedAt: z.iso.datetime({ offset: true }).optional(),
    /** the drawer or register (absent: the location as a whole) */
    drawerId: cashText(100).nullable().optional(),
    shiftId: cashText(100).nullable().optional(),
    tenderType: CashTenderType,
    /** required for `platform`, refused otherwise */
    platform: cashText(100).nullable().optional(),
    /** net of change for cash; negative for refunds exceeding sales */
    amount: SignedCashAmount,
    transactionCount: z.number().int().min(0).max(1_000_000).nullable().optional(),
  })
  .superRefine((r, ctx) => {
    if ((r.locationId === undefined) === (r.locationExternalId === undefined)) ctx.addIssue({ code: 'custom', path: ['locationId'], message: 'Send locationId or locationExternalId (one of them).' });
    if ((r.businessDay === undefined) === (r.closedAt === undefined)) ctx.addIssue({ code: 'custom', path: ['businessDay'], message: 'Send businessDay or closedAt (one of them).' });
    if (r.tenderType === 'platform' && !r.platform) ctx.addIssue({ code: 'custom', path: ['platform'], message: 'Required for tender type platform.' });
    if (r.tenderType !== 'platform' && r.platform) ctx.addIssue({ code: 'custom', path: ['platform'], message: 'Only a platform tender names a platform.' });
  })
  .openapi('TenderTotalInput');
export type TenderTotalInput = z.output<typeof TenderTotalInput>;

/** Body of `POST /cash/tenders`; each record is validated on its own (per-record results). */
export const TenderTotalBatch = z
  .strictObject({
    source: z.string().trim().min(1).max(100).openapi({ description: 'a stable label per system and location', example: 'pos-store-12' }),
    tenders: z.array(z.unknown()).min(1).max(100_000).openapi({ description: 'TenderTotalInput records; at most API_MAX_BATCH_SIZE (1,000 by default)' }),
  })
  .openapi('TenderTotalBatch');

/** One expected amount of a business day: per drawer, tender type and platform. */
export const ExpectedAmount = z
  .object({
    drawerId: z.string().nullable(),
    tenderType: CashTenderType,
    platform: z.string().nullable(),
    amount: z.string(),
    source: ExpectedSource,
  })
  .openapi('CashExpectedAmount');
export type ExpectedAmount = z.output<typeof ExpectedAmount>;

export const TenderTotal = z
  .object({
    id: z.string(),
    source: z.string(),
    externalId: z.string(),
    locationId: z.string(),
    businessDay: z.string(),
    drawerId: z.string().nullable(),
    shiftId: z.string().nullable(),
    tenderType: CashTenderType,
    platform: z.string().nullable(),
    amount: z.string(),
    transactionCount: z.number().int().nullable(),
    /** set when it arrived for a closed business day */
    lateReview: z.union([LateReview, z.null()]),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('CashTenderTotal');
export type TenderTotal = z.output<typeof TenderTotal>;

export const cashTendersOperations = {
  'POST /cash/tenders': { body: TenderTotalBatch, response: BatchResult, status: 202 },
};
// no list endpoint in the catalogue: tender totals show in GET /cash/business-days as the expected amounts
