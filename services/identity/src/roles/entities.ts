import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const Role = defineEntity({
  name: 'Role',
  tableName: 'roles',
  properties: {
    id: p.string().primary(),
    /** owner, manager or employee for built-in roles */
    key: p.string().nullable(),
    name: p.string(),
    description: p.text().nullable(),
    permissions: p.json<string[]>(),
    builtIn: p.boolean(),
    status: p.string().$type<'active' | 'archived'>(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    version: p.integer(),
  },
});
export type Role = InferEntity<typeof Role>;
