import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** The break or overtime rules of the company (no location) or of one location: one row each, replaced whole. */
export const RuleSet = defineEntity({
  name: 'RuleSet',
  tableName: 'rule_sets',
  properties: {
    id: p.string().primary(),
    kind: p.string().$type<'break' | 'overtime'>(),
    locationId: p.string().nullable(),
    rules: p.json<Record<string, unknown>>(),
    version: p.integer(),
    updatedAt: p.datetime(),
    updatedBy: p.json<{ type: string; id: string | null }>(),
  },
});
export type RuleSet = InferEntity<typeof RuleSet>;
