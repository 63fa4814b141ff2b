import { z } from '../zod';
import { IdParam, ListQuery, Timestamp, listEnvelope } from '../common';
import { BusinessDay, CashAmount, CashRef, Percent, cashText } from './common';

/**
 * Cash counts (`POST /cash/counts`) with over/short against what should be there:
 * - `drawer`: a register's cash at the end of a shift or day. Expected = `openingFloat` + the drawer's
 *   expected cash for the business day (cash tenders net of change) − the skims taken from it that day
 *   before this count.
 * - `skim`: cash taken out of a drawer during the day (to the safe). No over/short of its own: it lowers
 *   the drawer's expected cash.
 * - `safe`: the safe. Expected = the last safe count before (0 when none) + skims since + what drawer
 *   counts since left for the safe (counted − opening float) − deposits since.
 * Over/short = counted − expected (positive: over). It passes the threshold set for the location and
 * count type (`PUT /cash/over-short-thresholds`) when its absolute value is above the amount, or above
 * the percentage of the expected amount → `cash.over_short_exceeded`. Always `cash.count_completed`.
 * A count of a closed business day is refused (409 `period_locked`).
 */
export const CashCountType = z.enum(['drawer', 'skim', 'safe']);
export type CashCountType = z.output<typeof CashCountType>;

export const Denomination = z.strictObject({
  /** the face value of a note, coin or roll, e.g. "20.00", "0.25" */
  value: CashAmount,
  quantity: z.number().int().min(0).max(1_000_000),
});

export const CashCountCreate = z
  .strictObject({
    locationId: CashRef.openapi({ example: 'loc_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    type: CashCountType,
    /** drawer and skim counts name the drawer (register id as the POS sends it) */
    drawerId: cashText(100).nullable().optional(),
    /** when counted (default now); the business day follows from the location's cut-off unless `businessDay` is sent */
    countedAt: Timestamp.optional(),
    businessDay: BusinessDay.optional(),
    /** the total counted; with denominations it must equal their sum (or may be left out) */
    amount: CashAmount.optional(),
    denominations: z.array(Denomination).max(100).optional(),
    /** drawer counts: the float the drawer started with (part of the expected amount; stays in the drawer) */
    openingFloat: CashAmount.optional(),
    note: cashText(2000).nullable().optional(),
  })
  .superRefine((b, ctx) => {
    if (b.type !== 'safe' && !b.drawerId) ctx.addIssue({ code: 'custom', path: ['drawerId'], message: `Required for a ${b.type} count.` });
    if (b.type === 'safe' && b.drawerId) ctx.addIssue({ code: 'custom', path: ['drawerId'], message: 'A safe count names no drawer.' });
    if (b.type !== 'drawer' && b.openingFloat !== undefined) ctx.addIssue({ code: 'custom', path: ['openingFloat'], message: 'Only a drawer count has an opening float.' });
    if (b.amount === undefined && b.denominations === undefined) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'Send the amount counted, the denominations, or both.' });
  })
  .openapi('CashCountCreate');
export type CashCountCreate = z.output<typeof CashCountCreate>;

export const CashCount = z
  .object({
    id: z.string().openapi({ example: 'ccn_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    locationId: z.string(),
    businessDay: z.string(),
    type: CashCountType,
    drawerId: z.string().nullable(),
    countedAt: z.string(),
    amount: z.string(),
    denominations: z.array(z.object({ value: z.string(), quantity: z.number().int(), amount: z.string() })),
    openingFloat: z.string().nullable(),
    /** null for a skim */
    expected: z.string().nullable(),
    /** counted − expected (null for a skim) */
    overShort: z.string().nullable(),
    /** the threshold applied (null: none set) and whether over/short passed it */
    threshold: z.object({ amount: z.string().nullable(), percent: z.string().nullable() }).nullable(),
    exceeded: z.boolean(),
    /** how the expected amount was made (for a person checking it) */
    explanation: z.string().nullable(),
    note: z.string().nullable(),
    countedBy: z.object({ type: z.string(), id: z.string().nullable() }),
    createdAt: z.string(),
  })
  .openapi('CashCount');
export type CashCount = z.output<typeof CashCount>;

export const CashCountListQuery = ListQuery.extend({
  locationId: CashRef.optional(),
  type: CashCountType.optional(),
  drawerId: z.string().min(1).max(100).optional(),
  from: BusinessDay.optional(),
  to: BusinessDay.optional(),
  exceeded: z.enum(['true', 'false']).optional(),
});

/** One threshold: per location (null: the company default) and type, an amount or a percentage of the expected amount. */
export const OverShortThreshold = z
  .strictObject({
    locationId: CashRef.nullable(),
    /** a count type, or `business_day` for the day's over/short at close */
    countType: z.enum(['drawer', 'safe', 'business_day']),
    amount: CashAmount.nullable().optional(),
    percent: Percent.nullable().optional(),
  })
  .superRefine((t, ctx) => {
    if ((t.amount ?? null) === null && (t.percent ?? null) === null) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'Send an amount or a percent.' });
    if ((t.amount ?? null) !== null && (t.percent ?? null) !== null) ctx.addIssue({ code: 'custom', path: ['percent'], message: 'Send an amount or a percent, not both.' });
  })
  .openapi('OverShortThreshold');

/** Body of `PUT /cash/over-short-thresholds`: the whole set (each location and type once). */
export const OverShortThresholdsReplace = z.strictObject({ thresholds: z.array(OverShortThreshold).max(5000) }).openapi('OverShortThresholdsReplace');
export type OverShortThresholdsReplace = z.output<typeof OverShortThresholdsReplace>;

export const OverShortThresholds = z
  .object({
    thresholds: z.array(z.object({ locationId: z.string().nullable(), countType: z.enum(['drawer', 'safe', 'business_day']), amount: z.string().nullable(), percent: z.string().nullable() })),
    version: z.number().int(),
    updatedAt: z.string().nullable(),
  })
  .openapi('OverShortThresholds');
export type OverShortThresholds = z.output<typeof OverShortThresholds>;

export const OverShortThresholdsQuery = z.object({ locationId: CashRef.optional() });

export const cashCountsOperations = {
  'GET /cash/counts': { query: CashCountListQuery, response: listEnvelope(CashCount) },
  'POST /cash/counts': { body: CashCountCreate, response: CashCount, status: 201 },
  'GET /cash/counts/{id}': { params: IdParam, response: CashCount },
  'GET /cash/over-short-thresholds': { query: OverShortThresholdsQuery, response: OverShortThresholds },
  'PUT /cash/over-short-thresholds': { body: OverShortThresholdsReplace, response: OverShortThresholds },
};
