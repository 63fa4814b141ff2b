import type { SalesOrder as SalesOrderDto } from '@bop/contracts';
import { formatMoney } from '../transactions/money';
import type { SalesOrder } from './entities';

/** The order record (API and `data.object` of its events). */
export function orderDto(o: SalesOrder): SalesOrderDto {
  // numeric(18,6) reads back as "12.500000"
  const money = (v: string) => formatMoney(v, o.currency);
  return {
    id: o.id,
    source: o.source,
    externalId: o.externalId,
    locationId: o.locationId,
    customer: o.customer ?? null,
    customerId: o.customerId ?? null,
    placedAt: o.placedAt ? o.placedAt.toISOString() : null,
    lines: o.lines,
    shipping: o.shipping ?? null,
    paymentStatus: o.paymentStatus ?? null,
    status: o.status as SalesOrderDto['status'],
    currency: o.currency,
    subtotal: money(o.subtotal),
    taxTotal: money(o.taxTotal),
    shippingTotal: money(o.shippingTotal),
    total: money(o.total),
    reservations: o.reservations ?? [],
    reservedAt: o.reservedAt ? o.reservedAt.toISOString() : null,
    shipment: o.shipment ?? null,
    cancelledAt: o.cancelledAt ? o.cancelledAt.toISOString() : null,
    cancelReason: o.cancelReason ?? null,
    version: o.version,
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
  };
}
