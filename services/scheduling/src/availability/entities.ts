import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export type AvailabilityKindName = 'available' | 'unavailable' | 'preferred';

/** A window of an employee's availability: recurring on a weekday, or a dated exception; times at the home location. */
export const Availability = defineEntity({
  name: 'Availability',
  tableName: 'availability',
  properties: {
    id: p.string().primary(),
    employeeId: p.string(),
    kind: p.string().$type<AvailabilityKindName>(),
    weekday: p.string().nullable(),
    date: p.string().columnType('date').nullable(),
    startTime: p.string(),
    endTime: p.string(),
    effectiveFrom: p.string().columnType('date').nullable(),
    effectiveUntil: p.string().columnType('date').nullable(),
    note: p.string().nullable(),
    status: p.string().$type<'active' | 'archived'>(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Availability = InferEntity<typeof Availability>;
