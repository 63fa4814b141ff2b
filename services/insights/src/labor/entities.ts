import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** The latest version of a timesheet insights has counted (an older or repeated one changes nothing). */
export const LaborTimesheet = defineEntity({
  name: 'LaborTimesheet',
  tableName: 'labor_timesheets',
  properties: {
    timesheetId: p.string().primary(),
    version: p.integer(),
    employeeId: p.string(),
  },
});
export type LaborTimesheet = InferEntity<typeof LaborTimesheet>;

/** A timesheet's hours of one day at one location in one position: regular, and overtime by multiplier. */
export const LaborHours = defineEntity({
  name: 'LaborHours',
  tableName: 'labor_hours',
  properties: {
    id: p.string().primary(),
    timesheetId: p.string(),
    employeeId: p.string(),
    locationId: p.string(),
    businessDay: p.string().columnType('date'),
    position: p.string().nullable(),
    regularHours: p.decimal('string'),
    overtime: p.json<Record<string, string>>(),
    /** the hours at the hourly rate in force (regular × rate + overtime × rate × multiplier), unrounded; null without one. Postgres prices the row as it is written, and again when a rate of its employee arrives. */
    cost: p.decimal('string').nullable(),
  },
});
export type LaborHours = InferEntity<typeof LaborHours>;

/** A timesheet's hours on the clock in one 15-minute interval at one location (its day's, by the timesheet). */
export const LaborInterval = defineEntity({
  name: 'LaborInterval',
  tableName: 'labor_intervals',
  properties: {
    id: p.string().primary(),
    timesheetId: p.string(),
    locationId: p.string(),
    businessDay: p.string().columnType('date'),
    intervalStart: p.datetime(),
    hours: p.decimal('string'),
  },
});
export type LaborInterval = InferEntity<typeof LaborInterval>;

/** The hours and their cost of a location's business day: `labor_hours` summed, kept by Postgres in the same statement as those rows. */
export const LaborDay = defineEntity({
  name: 'LaborDay',
  tableName: 'labor_days',
  properties: {
    locationId: p.string().primary(),
    businessDay: p.string().columnType('date').primary(),
    hours: p.decimal('string'),
    cost: p.decimal('string'),
  },
});
export type LaborDay = InferEntity<typeof LaborDay>;
