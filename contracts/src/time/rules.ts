import { z } from '../zod';
import { Timestamp } from '../common';

const hours = z.string().regex(/^(0|[1-9]\d{0,2})(\.\d{1,2})?$/, 'Use a decimal string of hours such as "8" or "7.5".');
const multiplier = z.string().regex(/^[1-5](\.\d{1,2})?$/, 'Use a decimal string multiplier from 1 to 5 such as "1.5".');

export const OvertimeTier = z.strictObject({ after: hours.openapi({ example: '8' }), multiplier: multiplier.openapi({ example: '1.5' }) });

/** Tiers in rising order of hours; a later tier never pays less. */
const tiers = z
  .array(OvertimeTier)
  .max(5)
  .superRefine((list, ctx) => {
    for (let i = 1; i < list.length; i++) {
      if (Number(list[i].after) <= Number(list[i - 1].after)) ctx.addIssue({ code: 'custom', path: [i, 'after'], message: 'Tiers must rise: each starts after more hours than the one before.' });
      if (Number(list[i].multiplier) < Number(list[i - 1].multiplier)) ctx.addIssue({ code: 'custom', path: [i, 'multiplier'], message: 'A later tier cannot pay less than the one before.' });
    }
  });

const overtimeFields = {
  daily: tiers.openapi({ description: 'hours in one day after which a multiplier applies, e.g. after 8 at 1.5 and after 12 at 2' }),
  weekly: tiers.openapi({ description: 'regular hours in a workweek (company settings `weekStart`) after which a multiplier applies, e.g. after 40 at 1.5' }),
  consecutiveDay: z
    .strictObject({ day: z.number().int().min(2).max(7), tiers })
    .nullable()
    .openapi({ description: 'the n-th consecutive day worked in a workweek is paid by these tiers where they pay more (California: the 7th, first 8 h at 1.5, beyond at 2)' }),
};

export const OvertimeRulesPut = z.strictObject({ locationId: z.string().min(1).max(64).nullable().optional(), ...overtimeFields }).openapi('OvertimeRulesPut');

export const BreakRule = z.strictObject({
  name: z.string().trim().min(1).max(60).openapi({ example: 'Meal break' }),
  paid: z.boolean(),
  minutes: z.number().int().min(1).max(240).openapi({ description: 'the shortest break that counts' }),
  dueAfterHours: hours.openapi({ description: 'due once a shift has lasted this long without it', example: '5' }),
});

export const BreakRulesPut = z
  .strictObject({
    locationId: z.string().min(1).max(64).nullable().optional(),
    breaks: z.array(BreakRule).max(10),
    maxShiftHours: hours.nullable().optional().openapi({ description: 'a shift longer than this is an exception on the timesheet' }),
  })
  .openapi('BreakRulesPut');

const ruleSetMeta = {
  locationId: z.string().nullable().openapi({ description: 'the location these rules are for; null: the company' }),
  inheritedFrom: z.enum(['company', 'default']).nullable().openapi({ description: 'set when the location (or company) has no rules of its own and these are the ones that apply' }),
  version: z.number().int(),
  updatedAt: Timestamp.nullable(),
};

export const OvertimeRules = z.object({ ...ruleSetMeta, ...overtimeFields }).openapi('OvertimeRules');
export const BreakRules = z.object({ ...ruleSetMeta, breaks: z.array(BreakRule), maxShiftHours: z.string().nullable() }).openapi('BreakRules');

/** time's internal command: the overtime rules in force at these locations (scheduling's warnings and costs). */
export const OvertimeRulesResolve = z.strictObject({ locationIds: z.array(z.string().min(1).max(64)).min(1).max(200) });

export const RulesQuery = z.object({ locationId: z.string().min(1).max(64).optional() });

export const ruleOperations = {
  'GET /time/break-rules': { query: RulesQuery, response: BreakRules },
  'PUT /time/break-rules': { body: BreakRulesPut, response: BreakRules },
  'GET /time/overtime-rules': { query: RulesQuery, response: OvertimeRules },
  'PUT /time/overtime-rules': { body: OvertimeRulesPut, response: OvertimeRules },
};
