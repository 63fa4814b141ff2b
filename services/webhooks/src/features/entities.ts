import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Replica of identity's feature switches (fed by identity.feature.enabled|disabled). */
export const FeatureState = defineEntity({
  name: 'FeatureState',
  tableName: 'feature_states',
  properties: {
    key: p.string().primary(),
    enabled: p.boolean(),
    /** the switch and every ancestor are on */
    effective: p.boolean(),
    updatedAt: p.datetime(),
  },
});
export type FeatureState = InferEntity<typeof FeatureState>;
