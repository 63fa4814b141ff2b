import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Replica of organization's departments (department.* events, read through on a miss). */
export const PeopleDepartment = defineEntity({
  name: 'PeopleDepartment',
  tableName: 'departments',
  properties: {
    id: p.string().primary(),
    locationId: p.string().nullable(),
    status: p.string(),
    updatedAt: p.datetime(),
  },
});
export type PeopleDepartment = InferEntity<typeof PeopleDepartment>;
