import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { TimesheetFigures } from './calculate';

type Actor = { type: string; id: string | null };

/** An employee's timesheet for one pay period: figures recalculated in the background from the punches. */
export const Timesheet = defineEntity({
  name: 'Timesheet',
  tableName: 'timesheets',
  properties: {
    id: p.string().primary(),
    employeeId: p.string(),
    payPeriodId: p.string(),
    locationId: p.string(),
    status: p.string().$type<'open' | 'approved' | 'rejected' | 'locked'>(),
    figures: p.json<TimesheetFigures>().nullable(),
    missingPunches: p.boolean(),
    calculatedAt: p.datetime().nullable(),
    approvedAt: p.datetime().nullable(),
    approvedBy: p.json<Actor>().nullable(),
    rejectedAt: p.datetime().nullable(),
    rejectedBy: p.json<Actor>().nullable(),
    rejectionReason: p.string().nullable(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Timesheet = InferEntity<typeof Timesheet>;

/**
 * A timesheet waiting for the background recalculation; `seq` (from `timesheet_mark_seq`) orders the
 * pass and is renewed when a timesheet is marked again, so a pass drops only the mark it read.
 */
export const TimesheetMark = defineEntity({
  name: 'TimesheetMark',
  tableName: 'timesheet_marks',
  properties: {
    timesheetId: p.string().primary(),
    // the column's default (the migration's): the next of the schema's timesheet_mark_seq
    seq: p.bigint('string').defaultRaw(`nextval('timesheet_mark_seq')`),
    markedAt: p.datetime(),
  },
});
export type TimesheetMark = InferEntity<typeof TimesheetMark>;

/** One change's timesheets (parallel arrays of employee and pay period), folded into the marks by the recalculation. */
export const TimesheetTouch = defineEntity({
  name: 'TimesheetTouch',
  tableName: 'timesheet_touches',
  properties: {
    seq: p.bigint('string').primary().autoincrement(),
    employeeIds: p.array().$type<string[]>(),
    payPeriodIds: p.array().$type<string[]>(),
    touchedAt: p.datetime(),
  },
});
export type TimesheetTouch = InferEntity<typeof TimesheetTouch>;
