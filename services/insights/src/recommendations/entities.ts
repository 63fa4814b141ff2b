import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A recommended action with its reasoning and the figures used. `key` names the situation (kind,
 * location and subject): while one is open, the same situation is not recommended again; when the
 * situation is gone it is resolved.
 */
export const Recommendation = defineEntity({
  name: 'Recommendation',
  tableName: 'recommendations',
  properties: {
    id: p.string().primary(),
    key: p.string(),
    kind: p.string(),
    locationId: p.string(),
    itemId: p.string().nullable(),
    supplierId: p.string().nullable(),
    status: p.string(),
    reasoning: p.text(),
    figures: p.json<Record<string, string | null>>(),
    createdAt: p.datetime(),
    /** when its reasoning or figures last changed, or it was resolved (the list's `updatedSince`) */
    updatedAt: p.datetime(),
    resolvedAt: p.datetime().nullable(),
  },
});
export type Recommendation = InferEntity<typeof Recommendation>;
