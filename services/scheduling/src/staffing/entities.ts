import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Staff needed for a position at a location: a ratio of a demand driver, and minimums and maximums, by day and time of day. */
export const StaffingRule = defineEntity({
  name: 'StaffingRule',
  tableName: 'staffing_rules',
  properties: {
    id: p.string().primary(),
    locationId: p.string(),
    position: p.string(),
    driver: p.string().nullable(),
    perStaff: p.decimal('number').nullable(),
    minStaff: p.integer(),
    maxStaff: p.integer().nullable(),
    weekdays: p.array().$type<string[]>().nullable(),
    fromTime: p.string(),
    toTime: p.string(),
    status: p.string().$type<'active' | 'archived'>(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type StaffingRule = InferEntity<typeof StaffingRule>;
