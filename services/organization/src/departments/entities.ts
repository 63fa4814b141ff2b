import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const Department = defineEntity({
  name: 'Department',
  tableName: 'departments',
  properties: {
    id: p.string().primary(),
    name: p.string(),
    code: p.string().nullable(),
    locationId: p.string().nullable(),
    status: p.string(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Department = InferEntity<typeof Department>;
