import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const Location = defineEntity({
  name: 'Location',
  tableName: 'locations',
  properties: {
    id: p.string().primary(),
    name: p.string(),
    externalId: p.string().nullable(),
    timezone: p.string(),
    businessDayCutoff: p.string(),
    orgUnitId: p.string().nullable(),
    address: p.json<Record<string, string>>().nullable(),
    status: p.string(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    archivedAt: p.datetime().nullable(),
  },
});
export type Location = InferEntity<typeof Location>;
