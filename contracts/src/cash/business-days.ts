import { z } from '../zod';
import { listEnvelope } from '../common';
import { BusinessDay, CashRef, cashText } from './common';
import { ExpectedAmount } from './tenders';

/**
 * Business days (supplement: Business day states): a day of a location is `open` from its first
 * sale, tender total, count or deposit; `:close` locks its figures (a snapshot kept with the day) and
 * emits `cash.business_day_closed` (and `cash.over_short_exceeded` when the day's over/short passes the
 * `business_day` threshold); `:reopen` with a reason (people only) opens it again (the internal
 * `cash.business_day_reopened` tells sales). While closed, direct edits of the day answer 409
 * `period_locked`, and ingested records for it are stored with a warning and listed in `lateRecords`
 * for review — the locked figures do not change; reopening lets them in.
 */
export const BusinessDayStatus = z.enum(['open', 'closed']);

export const DayFigures = z
  .object({
    /** expected amounts per drawer, tender type and platform */
    expected: z.array(ExpectedAmount),
    /** totals per tender type (and platform) */
    expectedByTender: z.array(z.object({ tenderType: z.string(), platform: z.string().nullable(), amount: z.string() })),
    expectedCash: z.string(),
    /** the latest drawer count of each drawer */
    drawersCounted: z.number().int(),
    /** what those counts found beyond their opening floats, plus the day's skims: comparable to expectedCash */
    countedCash: z.string(),
    /** Σ over/short of those drawer counts (the day's over/short; `business_day` threshold at close) */
    overShort: z.string(),
    skims: z.string(),
    /** deposits carrying the day's cash (a deposit of several days is listed with each) */
    deposits: z.array(z.object({ depositId: z.string(), amount: z.string(), businessDays: z.array(z.string()), matchStatus: z.string() })),
    /** card and platform payouts covering the day, and what they were matched against */
    settled: z.array(z.object({ settlementId: z.string(), kind: z.string(), processor: z.string(), gross: z.string(), matchStatus: z.string() })),
    /** every difference found for the day, in words */
    differences: z.array(z.object({ kind: z.enum(['over_short', 'deposit_mismatch', 'deposit_unmatched', 'settlement_mismatch', 'not_counted']), message: z.string(), amount: z.string().nullable() })),
  })
  .openapi('CashDayFigures');
export type DayFigures = z.output<typeof DayFigures>;

export const LateRecord = z.object({
  kind: z.enum(['sales_transaction', 'tender_total', 'settlement']),
  id: z.string(),
  /** what it would change */
  message: z.string(),
  flaggedAt: z.string(),
  status: z.enum(['pending', 'applied']),
});

export const CashBusinessDay = z
  .object({
    locationId: z.string(),
    businessDay: z.string(),
    status: BusinessDayStatus,
    /** live figures while open; the locked snapshot while closed */
    figures: DayFigures,
    /** records that arrived while it was closed */
    lateRecords: z.array(LateRecord),
    closedAt: z.string().nullable(),
    closedBy: z.object({ type: z.string(), id: z.string().nullable() }).nullable(),
    closeNote: z.string().nullable(),
    reopenedAt: z.string().nullable(),
    reopenedBy: z.object({ type: z.string(), id: z.string().nullable() }).nullable(),
    reopenReason: z.string().nullable(),
    version: z.number().int(),
    updatedAt: z.string(),
  })
  .openapi('CashBusinessDay');
export type CashBusinessDay = z.output<typeof CashBusinessDay>;

export const CashBusinessDayListQuery = z.object({
  locationId: CashRef,
  from: BusinessDay.optional(),
  to: BusinessDay.optional(),
  status: BusinessDayStatus.optional(),
});

export const BusinessDayParams = z.object({ locationId: CashRef, date: BusinessDay });
export const BusinessDayClose = z.strictObject({ note: cashText(2000).nullable().optional() }).openapi('CashBusinessDayClose');
export const BusinessDayReopen = z.strictObject({ reason: cashText(2000) }).openapi('CashBusinessDayReopen');

export const cashBusinessDaysOperations = {
  // the days of one location, newest first (at most 92 days per request: from/to default to the last 14)
  'GET /cash/business-days': { query: CashBusinessDayListQuery, response: listEnvelope(CashBusinessDay) },
  'POST /cash/business-days/{locationId}/{date}:close': { params: BusinessDayParams, body: BusinessDayClose, response: CashBusinessDay },
  'POST /cash/business-days/{locationId}/{date}:reopen': { params: BusinessDayParams, body: BusinessDayReopen, response: CashBusinessDay },
};
