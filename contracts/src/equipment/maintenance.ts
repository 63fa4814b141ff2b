import { z } from '../zod';
import { IdParam, ListQuery, Timestamp, listEnvelope } from '../common';
import { IsoDate } from '../identity/company-settings';
import { MeterKind, MeterValue, label, ref } from './common';

const positiveUnits = MeterValue.refine((v) => Number(v) > 0, 'The interval must be greater than zero.');
const intervalDays = z.number().int().min(1).max(3650);

/**
 * A maintenance plan: every `intervalDays` days, or every `intervalUnits` of a meter (`meter`);
 * exactly one of the two.
 */
export const MaintenancePlanCreate = z
  .strictObject({
    assetId: ref,
    name: label(120).openapi({ example: 'Deep clean and oil change' }),
    description: z.string().trim().max(2000).nullable().optional(),
    intervalDays: intervalDays.optional(),
    meter: MeterKind.optional(),
    intervalUnits: positiveUnits.optional(),
    nextDueDate: IsoDate.optional().openapi({ description: 'date plans: the first due date (default: today at the asset\'s location plus `intervalDays`)' }),
    lastServiceValue: MeterValue.optional().openapi({ description: 'meter plans: the meter value at the last service (default: the current reading)' }),
    checklistFormId: ref.nullable().optional().openapi({ description: 'a checklist form (operations) to complete when the maintenance is done' }),
    createsWorkOrder: z.boolean().optional().openapi({ description: 'whether a work order is opened when the plan comes due (default false)' }),
    active: z.boolean().optional(),
  })
  .superRefine((b, ctx) => {
    const byDays = b.intervalDays !== undefined;
    const byMeter = b.meter !== undefined || b.intervalUnits !== undefined;
    if (byDays && byMeter) ctx.addIssue({ code: 'custom', path: ['intervalDays'], message: 'Give an interval in days or in meter units, not both.' });
    else if (!byDays && !byMeter) ctx.addIssue({ code: 'custom', path: ['intervalDays'], message: 'Give an interval in days (intervalDays) or in meter units (meter and intervalUnits).' });
    else if (byMeter) {
      if (b.meter === undefined) ctx.addIssue({ code: 'custom', path: ['meter'], message: 'A meter interval needs its meter.' });
      if (b.intervalUnits === undefined) ctx.addIssue({ code: 'custom', path: ['intervalUnits'], message: 'A meter interval needs its units.' });
    }
    if (b.nextDueDate !== undefined && !byDays) ctx.addIssue({ code: 'custom', path: ['nextDueDate'], message: 'Only a plan by days has a due date.' });
    if (b.lastServiceValue !== undefined && byDays) ctx.addIssue({ code: 'custom', path: ['lastServiceValue'], message: 'Only a plan by meter has a last service value.' });
  })
  .openapi('MaintenancePlanCreate');

/** Partial update; the kind of interval stays (a plan by days keeps days); `active` = false stops the plan. */
export const MaintenancePlanPatch = z
  .strictObject({
    name: label(120).optional(),
    description: z.string().trim().max(2000).nullable().optional(),
    intervalDays: intervalDays.optional(),
    intervalUnits: positiveUnits.optional(),
    nextDueDate: IsoDate.optional().openapi({ description: 'date plans: move the next due date' }),
    checklistFormId: ref.nullable().optional(),
    createsWorkOrder: z.boolean().optional(),
    active: z.boolean().optional(),
  })
  .openapi('MaintenancePlanPatch');

export const MaintenancePlan = z
  .object({
    id: z.string().openapi({ example: 'mpl_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    assetId: z.string(),
    locationId: z.string().openapi({ description: 'the asset\'s location' }),
    name: z.string(),
    description: z.string().nullable(),
    basis: z.enum(['date', 'meter']),
    intervalDays: z.number().int().nullable(),
    meter: MeterKind.nullable(),
    intervalUnits: z.string().nullable(),
    nextDueDate: IsoDate.nullable().openapi({ description: 'date plans: the next due date' }),
    nextDueValue: z.string().nullable().openapi({ description: 'meter plans: the meter value at which it comes due' }),
    checklistFormId: z.string().nullable(),
    createsWorkOrder: z.boolean(),
    active: z.boolean(),
    lastDoneAt: Timestamp.nullable().openapi({ description: 'when a work order of the plan was last closed' }),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('MaintenancePlan');

export const MaintenancePlanListQuery = ListQuery.extend({
  assetId: ref.optional(),
  active: z.enum(['true', 'false']).optional(),
  updatedSince: Timestamp.optional(),
});

/** A plan that is due (or, with `withinDays`, comes due soon), with why. */
export const MaintenanceDue = z
  .object({
    planId: z.string(),
    planName: z.string(),
    assetId: z.string(),
    assetName: z.string(),
    locationId: z.string(),
    basis: z.enum(['date', 'meter']),
    nextDueDate: IsoDate.nullable().openapi({ description: 'date plans: the due date' }),
    daysOverdue: z.number().int().nullable().openapi({ description: 'date plans: days past the due date (0 on the day; negative: days until it)' }),
    meter: MeterKind.nullable(),
    currentValue: z.string().nullable().openapi({ description: 'meter plans: the meter\'s latest reading' }),
    dueAtValue: z.string().nullable().openapi({ description: 'meter plans: the threshold it was due at' }),
    due: z.boolean().openapi({ description: 'the due date has come, or the meter reached its threshold' }),
    overdue: z.boolean().openapi({ description: 'the due date has passed, or the meter went beyond its threshold' }),
    reason: z.string().openapi({ example: 'running_hours 1510 reached the threshold 1500' }),
    checklistFormId: z.string().nullable(),
    openWorkOrderId: z.string().nullable().openapi({ description: 'the plan\'s work order not yet closed, if any' }),
  })
  .openapi('MaintenanceDue');

export const MaintenanceDueQuery = ListQuery.extend({
  locationId: ref.optional(),
  withinDays: z.coerce.number().int().min(0).max(366).default(0).openapi({ description: 'also date plans coming due within this many days (default 0: due and overdue only)' }),
});

export const maintenanceOperations = {
  'GET /maintenance-plans': { query: MaintenancePlanListQuery, response: listEnvelope(MaintenancePlan) },
  'POST /maintenance-plans': { body: MaintenancePlanCreate, response: MaintenancePlan, status: 201 },
  'PATCH /maintenance-plans/{id}': { params: IdParam, body: MaintenancePlanPatch, response: MaintenancePlan },
  'GET /maintenance-due': { query: MaintenanceDueQuery, response: listEnvelope(MaintenanceDue) },
};
