import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A waste record's value at its location and business day (recorded once at inventory, never changed). */
export const WasteRecord = defineEntity({
  name: 'WasteRecord',
  tableName: 'waste_records',
  properties: {
    id: p.string().primary(),
    locationId: p.string(),
    businessDay: p.string().columnType('date'),
    totalValue: p.decimal('string'),
    /** inventory's waste reason (null: kept before insights read it) */
    reason: p.string().nullable(),
  },
});
export type WasteRecord = InferEntity<typeof WasteRecord>;
