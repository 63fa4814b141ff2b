import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A closed cash business day's over/short (its latest close: a reopened day closed again replaces it). */
export const OverShortDay = defineEntity({
  name: 'OverShortDay',
  tableName: 'over_short_days',
  properties: {
    locationId: p.string().primary(),
    businessDay: p.string().columnType('date').primary(),
    overShort: p.decimal('string'),
    closedAt: p.datetime(),
  },
});
export type OverShortDay = InferEntity<typeof OverShortDay>;
