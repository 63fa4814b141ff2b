import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

type Actor = { type: 'user' | 'integration' | 'system' | 'employee'; id: string | null };

/** A shout-out to an employee, shown at a location (team displays) and in the list. */
export const Recognition = defineEntity({
  name: 'Recognition',
  tableName: 'recognitions',
  properties: {
    id: p.string().primary(),
    employeeId: p.string(),
    employeeName: p.string(),
    locationId: p.string(),
    message: p.string(),
    badge: p.string().nullable(),
    givenBy: p.json<Actor>(),
    createdAt: p.datetime(),
  },
});
export type Recognition = InferEntity<typeof Recognition>;
