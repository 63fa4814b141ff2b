import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A switch set by someone; features without a row are on (the default). */
export const FeatureSwitch = defineEntity({
  name: 'FeatureSwitch',
  tableName: 'feature_switches',
  properties: {
    key: p.string().primary(),
    enabled: p.boolean(),
    updatedAt: p.datetime(),
  },
});
export type FeatureSwitch = InferEntity<typeof FeatureSwitch>;
