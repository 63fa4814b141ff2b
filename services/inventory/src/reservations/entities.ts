import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** The stock held for one online sales order (its lines per stock item, in base units). */
export const InventoryOrderReservation = defineEntity({
  name: 'InventoryOrderReservation',
  tableName: 'order_reservations',
  properties: {
    orderId: p.string().primary(),
    locationId: p.string(),
    status: p.string().$type<'reserved' | 'shipped' | 'released'>(),
    lines: p.json<Array<{ itemId: string; quantity: string }>>(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type InventoryOrderReservation = InferEntity<typeof InventoryOrderReservation>;

/** MikroORM entities of the reservations area. */
export const reservationsEntities = [InventoryOrderReservation] as const;
