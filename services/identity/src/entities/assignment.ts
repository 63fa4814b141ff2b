import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Reach } from '@bop/shared';

export const Assignment = defineEntity({
  name: 'Assignment',
  schema: 'identity',
  tableName: 'assignments',
  properties: {
    id: p.string().primary(),
    userId: p.string(),
    roleId: p.string(),
    reach: p.json<Reach>(),
    createdAt: p.datetime(),
  },
});
export type Assignment = InferEntity<typeof Assignment>;
