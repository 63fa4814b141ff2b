import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const OrgUnit = defineEntity({
  name: 'OrgUnit',
  tableName: 'org_units',
  properties: {
    id: p.string().primary(),
    name: p.string(),
    kind: p.string().nullable(),
    parentId: p.string().nullable(),
    status: p.string(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type OrgUnit = InferEntity<typeof OrgUnit>;
