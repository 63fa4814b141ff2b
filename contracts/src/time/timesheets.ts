import { z } from '../zod';
import { Actor, IdParam, ListQuery, Timestamp, listEnvelope } from '../common';

const hours = z.string().openapi({ example: '7.50' });
const byMultiplier = z.record(z.string(), z.string()).openapi({ description: 'overtime hours by pay multiplier, e.g. {"1.5": "2.00", "2": "0.50"}', example: { '1.5': '2.00' } });

export const TimesheetShift = z.object({
  start: Timestamp,
  end: Timestamp.nullable(),
  locationId: z.string(),
  position: z.string().nullable(),
  workedHours: hours,
  breaks: z.array(z.object({ start: Timestamp, end: Timestamp.nullable(), minutes: z.number(), paid: z.boolean() })),
});

export const TimesheetDay = z.object({
  date: z.string(),
  workedHours: hours,
  paidBreakHours: hours,
  unpaidBreakHours: hours,
  regularHours: hours,
  overtime: byMultiplier,
  shifts: z.array(TimesheetShift),
});

export const TimesheetException = z.object({
  code: z.enum(['missing_clock_out', 'missing_clock_in', 'overlapping_punches', 'break_not_taken', 'short_break', 'shift_too_long', 'break_not_ended', 'unexpected_punch']),
  date: z.string(),
  punchIds: z.array(z.string()),
  message: z.string().openapi({ example: 'Clock-in at 09:02 on 2026-03-09 has no clock-out.' }),
});

export const Timesheet = z
  .object({
    id: z.string().openapi({ example: 'tsh_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    employeeId: z.string(),
    payPeriodId: z.string(),
    periodStart: z.string(),
    periodEnd: z.string(),
    locationId: z.string().openapi({ description: "the employee's home location when the timesheet began: its rules and time zone apply" }),
    status: z.enum(['open', 'approved', 'rejected', 'locked']),
    current: z.boolean().openapi({ description: 'false while a change waits to be counted (recalculated within seconds)' }),
    calculatedAt: Timestamp.nullable(),
    missingPunches: z.boolean().openapi({ description: 'a punch is missing (a clock-out, a clock-in, a break end): the timesheet cannot be approved' }),
    totals: z.object({ workedHours: hours, regularHours: hours, overtime: byMultiplier, paidBreakHours: hours, unpaidBreakHours: hours }),
    exceptions: z.array(TimesheetException),
    approvedAt: Timestamp.nullable(),
    approvedBy: Actor.nullable(),
    rejectedAt: Timestamp.nullable(),
    rejectedBy: Actor.nullable(),
    rejectionReason: z.string().nullable(),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('Timesheet');

export const TimesheetDetail = Timesheet.extend({
  days: z.array(TimesheetDay),
  weeks: z.array(z.object({ start: z.string(), end: z.string(), workedHours: hours, regularHours: hours, overtime: byMultiplier })),
}).openapi('TimesheetDetail');

export const TimesheetListQuery = ListQuery.extend({
  payPeriodId: z.string().min(1).max(64).optional(),
  locationId: z.string().min(1).max(64).optional(),
  employeeId: z.string().min(1).max(64).optional(),
  status: z.enum(['open', 'approved', 'rejected', 'locked']).optional(),
  updatedSince: Timestamp.optional(),
});

export const TimesheetReject = z.strictObject({ reason: z.string().trim().min(1).max(500) }).openapi('TimesheetReject');

export const PayPeriod = z
  .object({
    id: z.string().openapi({ example: 'ppd_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    startDate: z.string(),
    endDate: z.string(),
    status: z.enum(['open', 'ended', 'locked']).openapi({ description: '`open` until its end date has passed in the company time zone, then `ended`; `locked` once locked' }),
    timesheets: z.object({ open: z.number().int(), approved: z.number().int(), rejected: z.number().int(), locked: z.number().int() }),
    heldPunches: z.number().int().openapi({ description: 'punches sent into the period while locked, held for review; they are applied when it is unlocked' }),
    lockedAt: Timestamp.nullable(),
    lockedBy: Actor.nullable(),
    unlocks: z.array(z.object({ at: Timestamp, by: Actor, reason: z.string() })),
    version: z.number().int(),
  })
  .openapi('PayPeriod');

export const PayPeriodListQuery = ListQuery.extend({
  status: z.enum(['open', 'ended', 'locked']).optional(),
  from: z.iso.date().optional().openapi({ description: 'periods ending on or after this date' }),
  updatedSince: Timestamp.optional(),
});

export const PayPeriodUnlock = z.strictObject({ reason: z.string().trim().min(1).max(500) }).openapi('PayPeriodUnlock');

export const PayrollExportQuery = z.object({ format: z.enum(['json', 'csv']).optional() });

export const PayrollExportLine = z.object({
  position: z.string().nullable(),
  rateType: z.enum(['hourly', 'salary']).nullable(),
  rate: z.string().nullable().openapi({ description: 'the hourly rate in force on these days (salary: the yearly amount); null when no rate is recorded' }),
  from: z.string(),
  to: z.string(),
  regularHours: hours,
  overtime: byMultiplier,
  timeOffHours: hours,
  estimatedGross: z.string().nullable().openapi({ description: 'regular hours × rate + overtime hours × rate × multiplier (+ paid time off × rate), hourly rates only' }),
});

export const PayrollExport = z
  .object({
    payPeriod: z.object({ id: z.string(), startDate: z.string(), endDate: z.string() }),
    currency: z.string(),
    employees: z.array(
      z.object({
        employeeId: z.string(),
        employeeNumber: z.string().nullable(),
        externalId: z.string().nullable(),
        firstName: z.string(),
        lastName: z.string(),
        lines: z.array(PayrollExportLine),
        totals: z.object({ regularHours: hours, overtimeHours: hours, timeOffHours: hours, estimatedGross: z.string() }),
      }),
    ),
    totals: z.object({ regularHours: hours, overtimeHours: hours, timeOffHours: hours, estimatedGross: z.string() }),
  })
  .openapi('PayrollExport');

export const timesheetOperations = {
  'GET /time/timesheets': { query: TimesheetListQuery, response: listEnvelope(Timesheet) },
  'GET /time/timesheets/{id}': { params: IdParam, response: TimesheetDetail },
  'POST /time/timesheets/{id}:approve': { params: IdParam, response: TimesheetDetail },
  'POST /time/timesheets/{id}:reject': { params: IdParam, body: TimesheetReject, response: TimesheetDetail },
  'GET /me/timesheets': { query: ListQuery, response: listEnvelope(Timesheet) },
  'GET /time/pay-periods': { query: PayPeriodListQuery, response: listEnvelope(PayPeriod) },
  'POST /time/pay-periods/{id}:lock': { params: IdParam, response: PayPeriod },
  'POST /time/pay-periods/{id}:unlock': { params: IdParam, body: PayPeriodUnlock, response: PayPeriod },
  'GET /time/pay-periods/{id}/export': { params: IdParam, query: PayrollExportQuery, response: PayrollExport, errorStatuses: [409] },
};
