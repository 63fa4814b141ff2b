import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A shift as scheduling last announced it: scheduled hours count it once it is published. */
export const ScheduledShift = defineEntity({
  name: 'ScheduledShift',
  tableName: 'scheduled_shifts',
  properties: {
    shiftId: p.string().primary(),
    version: p.integer(),
    locationId: p.string(),
    businessDay: p.string().columnType('date'),
    employeeId: p.string().nullable(),
    position: p.string().nullable(),
    paidHours: p.decimal('string'),
    status: p.string(),
    /** start and end (from `localStart`, `localEnd`); null for a shift announced before insights kept them */
    startsAt: p.datetime().nullable(),
    endsAt: p.datetime().nullable(),
    /** the paid hours at the hourly rate in force, straight time (null: open, or no hourly rate); priced by Postgres as for `labor_hours` */
    cost: p.decimal('string').nullable(),
  },
});
export type ScheduledShift = InferEntity<typeof ScheduledShift>;

/** The published shifts' paid hours and cost of a location's business day, kept by Postgres with `scheduled_shifts`. */
export const ShiftDay = defineEntity({
  name: 'ShiftDay',
  tableName: 'shift_days',
  properties: {
    locationId: p.string().primary(),
    businessDay: p.string().columnType('date').primary(),
    hours: p.decimal('string'),
    cost: p.decimal('string'),
  },
});
export type ShiftDay = InferEntity<typeof ShiftDay>;
