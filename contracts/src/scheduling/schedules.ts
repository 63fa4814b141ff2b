import { z } from '../zod';
import { Shift } from './shifts';

const id = z.string().min(1).max(64);
const LocalDate = z.iso.date().openapi({ example: '2026-12-21' });

function checkPeriod(q: { from: string; to: string }, ctx: z.RefinementCtx, days: number) {
  if (q.to < q.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'Must not be before from.' });
  else if (Date.parse(q.to) - Date.parse(q.from) > (days - 1) * 86_400_000) ctx.addIssue({ code: 'custom', path: ['to'], message: `At most ${days} days at a time.` });
}

export const ScheduleQuery = z.object({ locationId: id, from: LocalDate, to: LocalDate }).superRefine((q, ctx) => checkPeriod(q, ctx, 31));

const money = z.string().openapi({ example: '1234.50' });

export const Schedule = z
  .object({
    locationId: z.string(),
    timezone: z.string(),
    from: z.string(),
    to: z.string(),
    shifts: z.array(Shift),
    days: z.array(
      z.object({
        date: z.string(),
        position: z.string(),
        hours: z.string().openapi({ description: 'paid hours of the shifts (drafts and published)' }),
        openHours: z.string().openapi({ description: 'of them, hours of shifts without an employee (not costed yet)' }),
        overtimeHours: z.string(),
        cost: money.openapi({ description: 'estimated wages: rates in force on the day, overtime by time\'s weekly rule at its multiplier' }),
      }),
    ),
    totals: z.object({
      hours: z.string(),
      openHours: z.string(),
      overtimeHours: z.string(),
      cost: money,
      forecastSales: money.nullable().openapi({ description: 'the net sales forecast of the period; null without enough history' }),
      laborCostPercent: z.string().nullable().openapi({ description: 'cost as a share of forecast sales, in percent' }),
    }),
    notes: z.array(z.string()).openapi({ description: 'what the estimate could not count, in words (an employee without a rate in force, a forecast missing)' }),
  })
  .openapi('Schedule');

export const ScheduleGenerate = z
  .strictObject({
    locationId: id,
    from: LocalDate,
    to: LocalDate,
    replaceDrafts: z.boolean().default(true).openapi({ description: 'drafts of the location in the period are replaced (archived) by the new draft; false: they stay and count as covering' }),
    allowOvertime: z.boolean().default(false),
    minShiftHours: z.number().min(1).max(12).default(4),
    maxShiftHours: z.number().min(1).max(16).default(8),
    shiftStartStepMinutes: z.union([z.literal(15), z.literal(30), z.literal(60)]).default(30),
  })
  .superRefine((b, ctx) => {
    checkPeriod(b, ctx, 14);
    if (b.maxShiftHours < b.minShiftHours) ctx.addIssue({ code: 'custom', path: ['maxShiftHours'], message: 'Must not be below minShiftHours.' });
  })
  .openapi('ScheduleGenerate');

export const ScheduleDraft = z
  .object({
    locationId: z.string(),
    from: z.string(),
    to: z.string(),
    neededHours: z.number(),
    coveredHours: z.number(),
    coverage: z.number().openapi({ description: 'share of the needed person-hours covered, 0 to 1' }),
    cost: money,
    overtimeHours: z.number(),
    method: z.string(),
    replacedDrafts: z.number().int(),
    shifts: z.array(Shift),
    unmet: z.array(z.object({ position: z.string(), start: z.string(), end: z.string(), missing: z.number(), reason: z.string() })),
    notes: z.array(z.string()),
  })
  .openapi('ScheduleDraft');

export const scheduleOperations = {
  'GET /schedules': { query: ScheduleQuery, response: Schedule },
  'POST /schedules:generate': { body: ScheduleGenerate, response: ScheduleDraft },
};
