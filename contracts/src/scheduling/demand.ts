import { z } from '../zod';
import { BatchResult, ListQuery, listEnvelope, Timestamp } from '../common';
import { utcTimestamp } from '../sales/transactions';

const id = z.string().min(1).max(64);
const LocalDate = z.iso.date().openapi({ example: '2026-12-24' });
/** A driver's name: `net_sales`, `transactions`, `covers`, `items_sold`, or a custom one. */
export const DriverName = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,39}$/, 'Use a driver name of lower-case letters, digits and underscores, such as net_sales or covers (at most 40).')
  .openapi({ example: 'covers' });

/** One value of a demand driver for one 15-minute interval at a location (spec: ingestion rules 1, 2). */
export const DemandDriverInput = z
  .strictObject({
    externalId: z.string().trim().min(1).max(200),
    locationId: id.optional(),
    locationExternalId: z.string().trim().min(1).max(200).optional(),
    driver: DriverName,
    intervalStart: utcTimestamp('send intervalStart in UTC')
      .refine((v) => Date.parse(v) % 900_000 === 0, 'Use the start of a 15-minute interval (minutes 00, 15, 30 or 45, no seconds).')
      .openapi({ example: '2026-11-23T17:15:00Z' }),
    value: z
      .union([z.number(), z.string().regex(/^\d{1,12}(\.\d{1,4})?$/, 'Use a non-negative decimal such as "12" or "1234.50".')])
      .refine((v) => Number(v) >= 0 && Number(v) <= 1e12 && Number.isFinite(Number(v)), 'Use a value from 0 to 1,000,000,000,000.')
      .openapi({ description: 'the amount of the driver in the interval (money in the company currency for net_sales)', example: '412.50' }),
  })
  .superRefine((r, ctx) => {
    if (!r.locationId && !r.locationExternalId) ctx.addIssue({ code: 'custom', path: ['locationId'], message: 'Name the location: locationId or locationExternalId.' });
  })
  .openapi('DemandDriverInput');

export const DemandDriverBatch = z
  .strictObject({
    source: z.string().trim().min(1).max(100).openapi({ description: 'a stable label per system and location', example: 'reservations-store-12' }),
    drivers: z.array(z.unknown()).min(1).max(100_000).openapi({ description: 'DemandDriverInput records; at most API_MAX_BATCH_SIZE (1,000 by default)' }),
  })
  .openapi('DemandDriverBatch');

/** A driver's value as stored (GET /demand-drivers: what a feed sent, to check a backfill). */
export const DemandDriver = z
  .object({
    id: z.string(),
    source: z.string(),
    externalId: z.string(),
    locationId: z.string(),
    driver: z.string(),
    intervalStart: Timestamp,
    value: z.string().openapi({ description: 'as stored, a decimal string', example: '412.5' }),
    version: z.number().int().openapi({ description: '1 when first stored; one more each time the record was sent with other content' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('DemandDriver');

export const DemandDriverListQuery = ListQuery.extend({
  locationId: id.optional(),
  driver: DriverName.optional(),
  source: z.string().trim().min(1).max(100).optional(),
  from: Timestamp.optional().openapi({ description: 'intervals starting at or after this instant' }),
  to: Timestamp.optional().openapi({ description: 'intervals starting before this instant' }),
  updatedSince: Timestamp.optional(),
}).superRefine((q, ctx) => {
  if (q.from && q.to && Date.parse(q.to) <= Date.parse(q.from)) ctx.addIssue({ code: 'custom', path: ['to'], message: 'Must be after from.' });
});

export const ForecastQuery = z
  .object({
    locationId: id,
    driver: DriverName.default('net_sales'),
    from: LocalDate,
    to: LocalDate,
    bucket: z.enum(['15m', '1h', '1d']).default('1h'),
  })
  .superRefine((q, ctx) => {
    if (q.to < q.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'Must not be before from.' });
    else if (Date.parse(q.to) - Date.parse(q.from) > 62 * 86_400_000) ctx.addIssue({ code: 'custom', path: ['to'], message: 'Forecast at most 63 days at a time.' });
  });

const SpecialKind = z.enum(['closed', 'lift', 'dip']);

export const Forecast = z
  .object({
    locationId: z.string(),
    driver: z.string(),
    timezone: z.string(),
    bucket: z.enum(['15m', '1h', '1d']),
    from: z.string(),
    to: z.string(),
    method: z.enum(['full', 'own_profile', 'similar_locations']).openapi({
      description:
        'how the forecast is made (docs/scheduling.md: Demand drivers and forecasts): `full` from 8 weeks of history or more; `similar_locations` with fewer: from the company\'s locations most similar over the days it has, scaled to its level; `own_profile` with fewer and no such location: from its own weekday levels and profiles',
    }),
    confidence: z
      .object({
        level: z.enum(['high', 'medium', 'low']),
        expectedErrorPercent: z.number().openapi({ description: 'the error (WAPE over 15-minute intervals, 4 weeks ahead) this method had with this much history on the project\'s accuracy bench' }),
      })
      .openapi({ description: 'lower with less history: `high` for `full`; `medium` for `similar_locations` from 2 weeks and `own_profile` from 4; else `low`' }),
    similarLocations: z
      .array(z.object({ locationId: z.string(), weight: z.number(), scale: z.number().openapi({ description: 'this location\'s level over that location\'s on the days both have' }) }))
      .nullable()
      .openapi({ description: 'with `similar_locations`: the locations used and their shares' }),
    historySource: z.enum(['feed', 'sales']).openapi({ description: '`feed`: values sent with POST /demand-drivers; `sales`: built from the sales sent' }),
    weeksOfHistory: z.number().int(),
    daysOfHistory: z.number().int().openapi({ description: 'days from the first day with data to the last day used' }),
    trainedThrough: z.string(),
    trendPercentPerWeek: z.number(),
    fittedAt: Timestamp.openapi({ description: 'when the model behind this answer was fitted (the background fit, or now when fitted for this request); `weeksOfHistory` says from how many weeks' }),
    fit: z.enum(['stored', 'on_demand']).openapi({ description: '`stored`: fitted in the background and read from storage; `on_demand`: fitted for this request (no stored fit covers the days yet, or an edit of special days is not in it)' }),
    stale: z.boolean().openapi({ description: 'true: newer data arrived (or a day ended) after `fittedAt`; the answer is the stored fit while it is fitted again' }),
    staleSince: Timestamp.nullable().openapi({ description: 'when the first change the stored fit does not include arrived (null when current, or when only a day has ended since the fit)' }),
    buckets: z.array(z.object({ start: Timestamp, end: Timestamp, value: z.string() })),
    days: z.array(
      z.object({
        date: z.string(),
        total: z.string(),
        baseline: z.string(),
        special: z.object({ kind: SpecialKind, name: z.string().nullable(), percent: z.number(), source: z.enum(['closed', 'given', 'learned', 'default']) }).nullable(),
        adjustmentPercent: z.number(),
      }),
    ),
  })
  .openapi('Forecast');

export const ForecastAdjustmentCreate = z
  .strictObject({
    locationId: id,
    driver: DriverName.nullable().optional().openapi({ description: 'the driver adjusted; absent or null: every driver of the location' }),
    date: LocalDate,
    percent: z.number().min(-100).max(1000).openapi({ description: 'e.g. 15 for +15 %, -100 for closed; 0 removes the adjustment', example: 15 }),
    reason: z.string().trim().max(500).nullable().optional(),
  })
  .openapi('ForecastAdjustmentCreate');

export const ForecastAdjustment = z
  .object({
    id: z.string(),
    locationId: z.string(),
    driver: z.string().nullable(),
    date: z.string(),
    percent: z.number(),
    reason: z.string().nullable(),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('ForecastAdjustment');

export const SpecialDayPut = z
  .strictObject({
    kind: SpecialKind,
    name: z.string().trim().min(1).max(100).nullable().optional().openapi({ description: 'the same name in other years is the same special day: its effect is learned from them', example: "Mother's Day" }),
    expectedPercent: z.number().min(-100).max(1000).nullable().optional().openapi({ description: 'lift or dip expected; absent: learned from past years, else a default' }),
  })
  .openapi('SpecialDayPut');

export const SpecialDay = z
  .object({
    date: z.string(),
    locationId: z.string().nullable().openapi({ description: 'the location whose special day this is (overriding the company\'s on that date there); null: the company\'s' }),
    kind: SpecialKind,
    name: z.string().nullable(),
    expectedPercent: z.number().nullable(),
    version: z.number().int(),
    updatedAt: Timestamp,
  })
  .openapi('SpecialDay');

export const SpecialDayParam = z.object({ date: LocalDate });
export const SpecialDayTarget = z.object({ locationId: id.optional().openapi({ description: 'one location\'s special day; absent: the company\'s' }) });
export const SpecialDayQuery = z.object({
  from: LocalDate.optional(),
  to: LocalDate.optional(),
  locationId: id.optional().openapi({ description: 'the special days that hold at this location: the company\'s and its own' }),
});

export const demandOperations = {
  'POST /demand-drivers': { body: DemandDriverBatch, response: BatchResult, status: 202 },
  'GET /demand-drivers': { query: DemandDriverListQuery, response: listEnvelope(DemandDriver) },
  'GET /forecasts': { query: ForecastQuery, response: Forecast },
  'POST /forecasts/adjustments': { body: ForecastAdjustmentCreate, response: ForecastAdjustment },
  'GET /special-days': { query: SpecialDayQuery, response: z.object({ data: z.array(SpecialDay) }) },
  'PUT /special-days/{date}': { params: SpecialDayParam, query: SpecialDayTarget, body: SpecialDayPut, response: SpecialDay, alsoStatuses: [201] },
  'DELETE /special-days/{date}': { params: SpecialDayParam, query: SpecialDayTarget, status: 204 },
};
