import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** The latest value of one named number at a location, as a POS or another system pushed it. */
export const DisplayMetric = defineEntity({
  name: 'DisplayMetric',
  tableName: 'display_metrics',
  properties: {
    id: p.string().primary(),
    locationId: p.string(),
    name: p.string(),
    // numeric without a scale: the value keeps the decimals it was pushed with
    value: p.decimal('string'),
    unit: p.string().nullable(),
    label: p.string().nullable(),
    measuredAt: p.datetime(),
    updatedAt: p.datetime(),
    /** the integration that pushed it */
    source: p.string().nullable(),
  },
});
export type DisplayMetric = InferEntity<typeof DisplayMetric>;
