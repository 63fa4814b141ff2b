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
