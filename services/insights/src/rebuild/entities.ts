import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A rebuild of the read models from the bus: `running` until its replay reached the bus's end as of its start. */
export const Rebuild = defineEntity({
  name: 'Rebuild',
  tableName: 'rebuilds',
  properties: {
    id: p.string().primary(),
    startedAt: p.datetime(),
    finishedAt: p.datetime().nullable(),
    events: p.integer(),
    status: p.string(),
  },
});
export type Rebuild = InferEntity<typeof Rebuild>;
