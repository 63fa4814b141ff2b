import { z } from '../zod';
import { Actor, IdParam, ListQuery, Timestamp, listEnvelope } from '../common';
import { IsoDate } from '../identity/company-settings';

const ref = z.string().min(1).max(64);

/** The KPIs a rule may watch: the figures `GET /kpis` answers. */
export const AlertKpi = z.enum([
  'netSales',
  'transactions',
  'averageCheck',
  'laborHours',
  'laborCost',
  'laborPercent',
  'salesPerLaborHour',
  'scheduledHours',
  'scheduledCost',
  'scheduledLaborPercent',
  'overShort',
  'wasteValue',
  'theoreticalFoodCost',
  'theoreticalFoodCostPercent',
  'actualFoodCost',
  'actualFoodCostPercent',
  'primeCost',
  'primeCostPercent',
]);
export type AlertKpi = z.output<typeof AlertKpi>;

/** A signed decimal string (no JSON numbers): a threshold, or a change in percent. */
const Decimal = z
  .string({ error: (iss) => (typeof iss.input === 'number' ? 'Send the threshold as a decimal string such as "30.5".' : 'Required decimal string.') })
  .regex(/^-?\d{1,12}(\.\d{1,4})?$/, 'Use a decimal string with up to 12 digits and 4 decimals such as "30.5" or "-50".');

export const AlertScope = z
  .strictObject({
    locationIds: z.array(ref).min(1).max(200).optional().openapi({ description: 'these locations' }),
    orgUnitId: ref.optional().openapi({ description: 'every location of this org unit and the units below it, as they stand when the rule is saved' }),
    evaluate: z
      .enum(['each_location', 'whole_scope'])
      .default('each_location')
      .openapi({ description: '`each_location`: each location is evaluated on its own and fires on its own; `whole_scope`: the KPI of all the locations together' }),
  })
  .superRefine((s, ctx) => {
    if (!s.locationIds === !s.orgUnitId) ctx.addIssue({ code: 'custom', path: ['locationIds'], message: 'Send `locationIds` or `orgUnitId` (one of them).' });
  })
  .openapi('AlertScope');

export const AlertComparison = z
  .strictObject({
    operator: z.enum(['above', 'below']).openapi({ description: 'the condition holds when the value is strictly above (below) the threshold' }),
    threshold: Decimal.openapi({ description: "with `against` = `value`: the KPI's own threshold (money, hours, percent, count); otherwise a change in percent", example: '30' }),
    against: z
      .enum(['value', 'previous_period', 'same_period_last_year', 'forecast'])
      .default('value')
      .openapi({ description: '`value`: the KPI is compared with the threshold; otherwise its change in percent against the comparison period of the window, or against the forecast of the window (`forecast`: netSales, transactions and averageCheck have one) ((current − base) ÷ |base| × 100)' }),
  })
  .openapi('AlertComparison');

export const AlertWindow = z
  .strictObject({
    kind: z.enum(['today', 'last_days', 'week_to_date']).openapi({ description: "in each location's business days: `today` so far; `last_days` the `days` complete business days before today; `week_to_date` Monday to today" }),
    days: z.number().int().min(1).max(92).optional().openapi({ description: 'with `last_days` only' }),
  })
  .superRefine((w, ctx) => {
    if (w.kind === 'last_days' && w.days === undefined) ctx.addIssue({ code: 'custom', path: ['days'], message: '`last_days` needs `days`.' });
    if (w.kind !== 'last_days' && w.days !== undefined) ctx.addIssue({ code: 'custom', path: ['days'], message: '`days` is for `last_days` only.' });
  })
  .openapi('AlertWindow');

export const AlertRuleStatus = z.enum(['active', 'archived']);

export const AlertRuleCreate = z
  .strictObject({
    name: z.string().trim().min(1).max(120).openapi({ example: 'Labor % above 30 today' }),
    kpi: AlertKpi,
    scope: AlertScope,
    comparison: AlertComparison,
    window: AlertWindow,
  })
  .openapi('AlertRuleCreate');

/** Partial update: each part sent replaces the rule's (a scope, comparison or window is sent whole). */
export const AlertRulePatch = z
  .strictObject({
    name: AlertRuleCreate.shape.name.optional(),
    kpi: AlertKpi.optional(),
    scope: AlertScope.optional(),
    comparison: AlertComparison.optional(),
    window: AlertWindow.optional(),
  })
  .openapi('AlertRulePatch');



export const AlertRule = z
  .object({
    id: z.string().openapi({ example: 'alr_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    name: z.string(),
    kpi: AlertKpi,
    scope: z.object({ locationIds: z.array(z.string()).nullable(), orgUnitId: z.string().nullable(), evaluate: z.enum(['each_location', 'whole_scope']) }),
    locationIds: z.array(z.string()).openapi({ description: 'the locations the rule watches (an org unit resolved when the rule was saved)' }),
    comparison: z.object({ operator: z.enum(['above', 'below']), threshold: z.string(), against: z.enum(['value', 'previous_period', 'same_period_last_year', 'forecast']) }),
    window: z.object({ kind: z.enum(['today', 'last_days', 'week_to_date']), days: z.number().int().nullable() }),
    status: AlertRuleStatus,
    firing: z.array(z.object({ locationId: z.string().nullable(), since: Timestamp })).openapi({ description: 'where the condition holds now (locationId null: the whole scope); it fires again only after it stopped holding' }),
    version: z.number().int(),
    createdBy: Actor,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    archivedAt: Timestamp.nullable(),
  })
  .openapi('AlertRule');

export const AlertRuleListQuery = ListQuery.extend({ status: AlertRuleStatus.optional(), kpi: AlertKpi.optional(), updatedSince: Timestamp.optional() });

/** One firing of a rule: the value that crossed, the threshold, the window it was computed over. */
export const Alert = z
  .object({
    id: z.string().openapi({ example: 'alt_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    ruleId: z.string(),
    ruleName: z.string(),
    kpi: AlertKpi,
    locationId: z.string().nullable().openapi({ description: 'the location evaluated; null when the rule evaluates its whole scope' }),
    locationIds: z.array(z.string()).openapi({ description: 'the locations counted' }),
    operator: z.enum(['above', 'below']),
    against: z.enum(['value', 'previous_period', 'same_period_last_year', 'forecast']),
    value: z.string().openapi({ description: 'the KPI over the window (or its change in percent, against a comparison period)' }),
    threshold: z.string(),
    kpiValue: z.string().openapi({ description: 'the KPI over the window' }),
    baseValue: z.string().nullable().openapi({ description: 'the KPI over the comparison period (null against a value)' }),
    from: IsoDate.openapi({ description: 'the first business day of the window' }),
    to: IsoDate.openapi({ description: 'the last business day of the window' }),
    triggeredAt: Timestamp,
  })
  .openapi('Alert');

export const AlertListQuery = ListQuery.extend({
  ruleId: ref.optional(),
  locationId: ref.optional(),
  from: Timestamp.optional().openapi({ description: 'firings at or after this instant' }),
});

export const alertOperations = {
  'GET /alert-rules': { query: AlertRuleListQuery, response: listEnvelope(AlertRule) },
  'POST /alert-rules': { body: AlertRuleCreate, response: AlertRule, status: 201 },
  'GET /alert-rules/{id}': { params: IdParam, response: AlertRule },
  'PATCH /alert-rules/{id}': { params: IdParam, body: AlertRulePatch, response: AlertRule },
  'DELETE /alert-rules/{id}': { params: IdParam, response: AlertRule },
  'GET /alerts': { query: AlertListQuery, response: listEnvelope(Alert) },
};
