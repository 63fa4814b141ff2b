import { z } from '../zod';
import { IsoDate } from '../identity/company-settings';

const ref = z.string().min(1).max(64);

/** The comparison `GET /kpis` answers beside the asked period: another period, or the forecast of the same one. */
export const KpiCompare = z.enum(['previous_period', 'same_period_last_year', 'forecast']);
export type KpiCompare = z.output<typeof KpiCompare>;

/** The KPIs whose source is not modelled by insights yet: named in `unavailable`, never answered with a made-up figure (the food cost ones are answered now; their names stay valid). */
export const UnavailableKpi = z.enum(['guests', 'primeCostPercent', 'foodCostPercent', 'theoreticalFoodCostPercent']);

/** Longest date range of one `GET /kpis` (a year and a day: a leap year's same period last year). */
export const KPI_MAX_DAYS = 367;

/** `locationId`: location ids separated by commas (GET /kpis and the reports). */
export const locationList = z
  .string()
  .min(1)
  .max(200 * 65)
  .transform((v) => [...new Set(v.split(',').map((s) => s.trim()).filter((s) => s.length > 0))])
  .pipe(z.array(ref).min(1).max(200))
  .openapi({ description: 'location ids separated by commas (up to 200); default: every location within your reach', example: 'loc_01JD3Y7Q0ZK8M4N2P5R6S7T8V9,loc_01JD3Y7Q0ZK8M4N2P5R6S7T8VA' });

export const KpiQuery = z
  .object({
    from: IsoDate.openapi({ description: 'first business day (inclusive)' }),
    to: IsoDate.openapi({ description: 'last business day (inclusive)' }),
    locationId: locationList.optional(),
    orgUnitId: ref.optional().openapi({ description: 'every location of this org unit and the units below it (not with `locationId`)' }),
    compare: KpiCompare.optional().openapi({ description: 'a comparison period: the same number of days just before, or the same dates a year earlier; or `forecast`: the same days as scheduling forecast them (net sales, transactions and average check; the other figures null)' }),
  })
  .superRefine((q, ctx) => {
    if (q.from > q.to) ctx.addIssue({ code: 'custom', path: ['to'], message: '`to` is before `from`.' });
    else if ((Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 + 1 > KPI_MAX_DAYS) ctx.addIssue({ code: 'custom', path: ['to'], message: `A range is at most ${KPI_MAX_DAYS} days.` });
    if (q.locationId && q.orgUnitId) ctx.addIssue({ code: 'custom', path: ['orgUnitId'], message: 'Send `locationId` or `orgUnitId`, not both.' });
  });

const money = z.string().openapi({ example: '12450.75' });
const ratio = z.string().nullable().openapi({ description: 'null when its divisor is zero', example: '27.35' });

export const KpiFigures = z
  .object({
    netSales: money.openapi({ description: 'completed sales (refunds subtract) net of discounts, before tax' }),
    transactions: z.number().int().openapi({ description: 'completed sales, refunds not counted' }),
    averageCheck: ratio.openapi({ description: 'netSales ÷ transactions' }),
    laborHours: z.string().openapi({ description: 'hours worked from the timesheets (paid breaks included)', example: '412.50' }),
    laborCost: money.openapi({ description: 'regular hours × the hourly rate in force + overtime hours × rate × multiplier' }),
    laborPercent: ratio.openapi({ description: 'laborCost ÷ netSales × 100' }),
    salesPerLaborHour: ratio.openapi({ description: 'netSales ÷ laborHours (SPLH)' }),
    scheduledHours: z.string().openapi({ description: 'paid hours of the published shifts (open shifts included) starting on those days', example: '420.00' }),
    scheduledCost: money.openapi({ description: 'scheduled hours of assigned shifts × the hourly rate in force (straight time)' }),
    scheduledLaborPercent: ratio.openapi({ description: 'scheduledCost ÷ netSales × 100' }),
    overShort: money.openapi({ description: 'counted − expected cash of the cash business days closed among those days (negative: short)' }),
    wasteValue: money.openapi({ description: 'the value of the waste recorded at inventory on those business days (quantity × the average cost then)' }),
    theoreticalFoodCost: money.openapi({ description: "the cost of the depletion of sales by their recipes (inventory's sale, refund and void movements, at the average cost then)" }),
    theoreticalFoodCostPercent: ratio.openapi({ description: 'theoreticalFoodCost ÷ netSales × 100' }),
    actualFoodCost: money.openapi({ description: 'the cost of what was used: opening stock + receipts ± transfers − closing stock (sales, waste, count variances and adjustments other than opening balances)' }),
    actualFoodCostPercent: ratio.openapi({ description: 'actualFoodCost ÷ netSales × 100' }),
    primeCost: money.openapi({ description: 'actualFoodCost + laborCost' }),
    primeCostPercent: ratio.openapi({ description: '(actualFoodCost + laborCost) ÷ netSales × 100' }),
  })
  .openapi('KpiFigures');

export const KpiPeriod = z.object({ from: IsoDate, to: IsoDate, figures: KpiFigures }).openapi('KpiPeriod');

/**
 * The figures of a comparison: those of `KpiFigures` for a comparison period; with `compare=forecast`
 * the forecast net sales, transactions (not whole: a forecast) and average check, and null for a figure
 * without a forecast (all the others, and these when a location or day of the range has none).
 */
export const KpiComparisonFigures = z
  .object(Object.fromEntries(Object.entries(KpiFigures.shape).map(([k, v]) => [k, k === 'transactions' ? z.number().nullable().openapi({ description: 'completed sales, refunds not counted (the forecast: not a whole number)' }) : v.nullable()])) as {
    [K in keyof typeof KpiFigures.shape]: z.ZodNullable<K extends 'transactions' ? z.ZodNumber : (typeof KpiFigures.shape)[K]>;
  })
  .openapi('KpiComparisonFigures');

export const Kpis = z
  .object({
    from: IsoDate,
    to: IsoDate,
    locationIds: z.array(z.string()).openapi({ description: 'the locations counted' }),
    figures: KpiFigures,
    byLocation: z.array(z.object({ locationId: z.string(), figures: KpiFigures })),
    comparison: z.object({ from: IsoDate, to: IsoDate, figures: KpiComparisonFigures, compare: KpiCompare }).nullable(),
    unavailable: z
      .array(z.object({ kpi: UnavailableKpi, reason: z.string() }))
      .openapi({ description: 'KPIs whose source insights does not model yet: left out of `figures`, never estimated' }),
  })
  .openapi('Kpis');

export const kpiOperations = {
  'GET /kpis': { query: KpiQuery, response: Kpis },
};
