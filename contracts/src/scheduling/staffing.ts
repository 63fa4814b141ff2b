import { z } from '../zod';
import { IdParam, ListQuery, Timestamp, listEnvelope } from '../common';
import { DriverName } from './demand';
import { Weekday } from './availability';

const id = z.string().min(1).max(64);
const LocalDate = z.iso.date().openapi({ example: '2026-12-21' });
const LocalTime = z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, 'Use a time HH:MM from 00:00 to 24:00.');

const ruleFields = {
  position: z.string().trim().min(1).max(100).openapi({ example: 'Cook' }),
  driver: DriverName.nullable().optional().openapi({ description: 'the demand driver staff are needed for; null: a minimum (or maximum) only' }),
  perStaff: z.number().positive().max(1e9).nullable().optional().openapi({ description: 'how much of the driver one person handles in an hour: one cook per 40 covers an hour is 40', example: 40 }),
  minStaff: z.number().int().min(0).max(500).default(0),
  maxStaff: z.number().int().min(0).max(500).nullable().optional(),
  weekdays: z.array(Weekday).min(1).max(7).nullable().optional().openapi({ description: 'the days the rule holds (default every day)' }),
  fromTime: LocalTime.default('00:00').openapi({ description: 'from this local time of day' }),
  toTime: LocalTime.default('24:00').openapi({ description: 'until this local time of day' }),
};

function checkRule(r: { driver?: string | null; perStaff?: number | null; minStaff?: number; maxStaff?: number | null; fromTime?: string; toTime?: string }, ctx: z.RefinementCtx) {
  if ((r.driver == null) !== (r.perStaff == null)) ctx.addIssue({ code: 'custom', path: [r.driver == null ? 'driver' : 'perStaff'], message: 'A ratio needs both driver and perStaff.' });
  if (r.maxStaff != null && r.minStaff !== undefined && r.maxStaff < r.minStaff) ctx.addIssue({ code: 'custom', path: ['maxStaff'], message: 'Must not be below minStaff.' });
  if (r.fromTime !== undefined && r.toTime !== undefined && r.toTime <= r.fromTime) ctx.addIssue({ code: 'custom', path: ['toTime'], message: 'Must be after fromTime on the same day.' });
  if (r.driver == null && !r.minStaff && r.maxStaff == null) ctx.addIssue({ code: 'custom', path: ['minStaff'], message: 'A rule without a driver sets a minimum or a maximum.' });
}

export const StaffingRuleCreate = z.strictObject({ locationId: id, ...ruleFields }).superRefine(checkRule).openapi('StaffingRuleCreate');

export const StaffingRulePatch = z
  .strictObject({
    position: ruleFields.position.optional(),
    driver: ruleFields.driver,
    perStaff: ruleFields.perStaff,
    minStaff: z.number().int().min(0).max(500).optional(),
    maxStaff: ruleFields.maxStaff,
    weekdays: ruleFields.weekdays,
    fromTime: LocalTime.optional(),
    toTime: LocalTime.optional(),
  })
  .openapi('StaffingRulePatch');

export const StaffingRule = z
  .object({
    id: z.string().openapi({ example: 'srl_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    locationId: z.string(),
    position: z.string(),
    driver: z.string().nullable(),
    perStaff: z.number().nullable(),
    minStaff: z.number().int(),
    maxStaff: z.number().int().nullable(),
    weekdays: z.array(Weekday).nullable(),
    fromTime: z.string(),
    toTime: z.string(),
    status: z.enum(['active', 'archived']),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('StaffingRule');

export const StaffingRuleListQuery = ListQuery.extend({ locationId: id.optional(), status: z.enum(['active', 'archived']).optional(), updatedSince: Timestamp.optional() });

export const StaffingNeedsQuery = z
  .object({ locationId: id, from: LocalDate, to: LocalDate })
  .superRefine((q, ctx) => {
    if (q.to < q.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'Must not be before from.' });
    else if (Date.parse(q.to) - Date.parse(q.from) > 30 * 86_400_000) ctx.addIssue({ code: 'custom', path: ['to'], message: 'At most 31 days at a time.' });
  });

export const StaffingNeeds = z
  .object({
    locationId: z.string(),
    timezone: z.string(),
    from: z.string(),
    to: z.string(),
    hours: z.array(
      z.object({
        start: Timestamp,
        end: Timestamp,
        position: z.string(),
        needed: z.number().int(),
        scheduled: z.string().openapi({ description: 'people scheduled in the hour (a shift covering part of it counts by its share), drafts included' }),
        gap: z.string().openapi({ description: 'needed less scheduled: positive is short, negative over' }),
        drivers: z.record(z.string(), z.string()).openapi({ description: 'the forecast of each driver the needs come from, in the hour' }),
      }),
    ),
    positions: z.array(z.object({ position: z.string(), neededHours: z.number().int(), scheduledHours: z.string(), shortHours: z.string() })),
    notes: z.array(z.string()).openapi({ description: 'what the needs could not count, in words (a driver without enough history: its minimums only)' }),
  })
  .openapi('StaffingNeeds');

export const staffingOperations = {
  'GET /staffing-rules': { query: StaffingRuleListQuery, response: listEnvelope(StaffingRule) },
  'POST /staffing-rules': { body: StaffingRuleCreate, response: StaffingRule, status: 201 },
  'GET /staffing-rules/{id}': { params: IdParam, response: StaffingRule },
  'PATCH /staffing-rules/{id}': { params: IdParam, body: StaffingRulePatch, response: StaffingRule },
  'DELETE /staffing-rules/{id}': { params: IdParam, response: StaffingRule },
  'GET /staffing-needs': { query: StaffingNeedsQuery, response: StaffingNeeds },
};
