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
  },
});
export type ScheduledShift = InferEntity<typeof ScheduledShift>;
