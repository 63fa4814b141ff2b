import { z } from '../zod';
import { ExternalIdParam, IdParam, ListQuery, Timestamp, listEnvelope } from '../common';
import { SalesCurrency, SalesDecimal, SalesLine, utcTimestamp } from './transactions';

/** Stored states; a source sends only `open` or `cancelled` (`reserved` and `shipped` come from `:reserve` and `:ship`). */
export const SalesOrderStatus = z.enum(['open', 'reserved', 'shipped', 'cancelled']);
export const SalesOrderSentStatus = z.enum(['open', 'cancelled'], { error: 'A source sends status open or cancelled; reserved and shipped are set by :reserve and :ship.' });

/** placedAt in UTC (as occurredAt of transactions, spec: ingestion rule 8). */
const OrderTimestamp = utcTimestamp('Send placedAt in UTC (Z or +00:00).');

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
const CountryCode = z
  .string()
  .refine((c) => /^[A-Z]{2}$/.test(c) && ![undefined, 'Unknown Region'].includes(regionNames.of(c)), { message: 'Must be an ISO 3166-1 alpha-2 country code such as US.' })
  .openapi({ example: 'US' });

const text = (max: number) => z.string().trim().min(1).max(max);

export const SalesOrderCustomerInput = z
  .strictObject({
    externalId: text(200).optional(),
    name: text(200).optional(),
    email: z.string().trim().max(254).pipe(z.email()).transform((e) => e.toLowerCase()).optional(),
  })
  .refine((c) => c.externalId !== undefined || c.name !== undefined || c.email !== undefined, { message: 'Send at least one of externalId, name or email.' });

export const SalesOrderAddressInput = z.strictObject({
  line1: text(200),
  line2: text(200).optional(),
  city: text(100),
  region: text(100).optional(),
  /** optional: not every country has postal codes */
  postalCode: text(20).optional(),
  country: CountryCode,
});

export const SalesOrderShippingInput = z.strictObject({
  method: text(100).openapi({ example: 'standard' }),
  /** what the customer pays for shipping, in the currency's minor units at most */
  amount: SalesDecimal,
  /** absent for pick-up */
  address: SalesOrderAddressInput.optional(),
});

export const SalesOrderLineInput = z.strictObject({
  itemExternalId: text(200).optional(),
  itemSku: text(100).optional(),
  itemBarcode: text(100).optional(),
  name: z.string().max(200).optional(),
  /** greater than zero */
  quantity: SalesDecimal,
  /** price per unit before tax; more decimals than the currency's are fine (the line total is rounded) */
  unitPrice: SalesDecimal,
  /** amount off the line (not per unit); default 0 */
  discount: SalesDecimal.optional(),
  /** the line's tax when the store charges it on top of the price; leave out for tax-inclusive prices */
  tax: SalesDecimal.optional(),
});

/** Body of `PUT /sales-orders/external/{externalId}` (spec: Online sales order). */
export const SalesOrderInput = z
  .strictObject({
    source: z.string().trim().min(1).max(100).openapi({ description: 'a stable label per system', example: 'shopify-main' }),
    customer: SalesOrderCustomerInput.optional(),
    locationId: z.string().min(1).max(64).optional(),
    locationExternalId: z.string().min(1).max(200).optional().openapi({ description: 'the location that fulfils the order' }),
    placedAt: OrderTimestamp.optional(),
    lines: z.array(SalesOrderLineInput).min(1, 'An order has at least one line.').max(1000),
    shipping: SalesOrderShippingInput.optional(),
    paymentStatus: text(40).optional().openapi({ example: 'paid' }),
    status: SalesOrderSentStatus.default('open'),
    /** only with status cancelled */
    cancelReason: text(500).optional(),
    currency: SalesCurrency,
  })
  .superRefine((o, ctx) => {
    // spec: ingestion rule 2
    if ((o.locationId === undefined) === (o.locationExternalId === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['locationExternalId'], message: 'Send exactly one of locationId or locationExternalId.' });
    }
    if (o.cancelReason !== undefined && o.status !== 'cancelled') ctx.addIssue({ code: 'custom', path: ['cancelReason'], message: 'Only a cancelled order carries a cancelReason.' });
  })
  .openapi('SalesOrderInput');
export type SalesOrderInput = z.output<typeof SalesOrderInput>;

/** An order line as stored: the same shape as a sales transaction's line (lineTotal rounded to the currency's minor units). */
export const SalesOrderLine = SalesLine;

export const SalesOrderAddress = z.object({
  line1: z.string(),
  line2: z.string().nullable(),
  city: z.string(),
  region: z.string().nullable(),
  postalCode: z.string().nullable(),
  country: z.string(),
});

/** Stock inventory reserved or deducted for an order: an item (an ordered item, or an ingredient of its usage recipe) and its quantity in base units. */
export const SalesOrderStockLine = z.object({ itemId: z.string(), quantity: z.string() }).openapi('SalesOrderStockLine');

export const SalesOrderShipment = z
  .object({
    carrier: z.string().nullable(),
    trackingNumber: z.string().nullable(),
    shippedAt: z.string(),
    /** the stock deducted at the order's location */
    lines: z.array(SalesOrderStockLine),
  })
  .openapi('SalesOrderShipment');

export const SalesOrder = z
  .object({
    id: z.string().openapi({ example: 'sor_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    source: z.string(),
    externalId: z.string(),
    locationId: z.string(),
    customer: z.object({ externalId: z.string().nullable(), name: z.string().nullable(), email: z.string().nullable() }).nullable(),
    /** the customer record whose externalId is customer.externalId (`cus_…`), null when none */
    customerId: z.string().nullable(),
    placedAt: z.string().nullable(),
    lines: z.array(SalesOrderLine),
    shipping: z.object({ method: z.string(), amount: z.string(), address: SalesOrderAddress.nullable() }).nullable(),
    paymentStatus: z.string().nullable(),
    status: SalesOrderStatus,
    currency: z.string(),
    /** sum of the line totals */
    subtotal: z.string(),
    /** sum of the lines' tax */
    taxTotal: z.string(),
    shippingTotal: z.string(),
    /** subtotal + taxTotal + shippingTotal */
    total: z.string(),
    /** the stock inventory holds for the order at its location (`:reserve`): per item, in base units; empty when none is held */
    reservations: z.array(SalesOrderStockLine),
    reservedAt: z.string().nullable(),
    /** carrier, tracking and the stock deducted, once shipped (`:ship`) */
    shipment: z.union([SalesOrderShipment, z.null()]),
    cancelledAt: z.string().nullable(),
    cancelReason: z.string().nullable(),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('SalesOrder');
export type SalesOrder = z.output<typeof SalesOrder>;

export const SalesOrderListQuery = ListQuery.extend({
  status: SalesOrderStatus.optional(),
  source: z.string().min(1).max(100).optional(),
  locationId: z.string().min(1).max(64).optional(),
  updatedSince: Timestamp.optional(),
});

export const SalesOrderExternalQuery = z.object({
  /** needed only when several sources use the same externalId */
  source: z.string().min(1).max(100).optional(),
});

export const SalesOrderCancel = z.strictObject({ reason: text(500).optional() }).openapi('SalesOrderCancel');

/** Body of `POST /sales-orders/{id}:reserve`: nothing (the order's matched lines are reserved at its location). */
export const SalesOrderReserve = z.strictObject({}).openapi('SalesOrderReserve');

/** Body of `POST /sales-orders/{id}:ship`. */
export const SalesOrderShip = z
  .strictObject({
    carrier: text(100).optional().openapi({ example: 'UPS' }),
    trackingNumber: text(100).optional().openapi({ example: '1Z999AA10123456784' }),
    /** when it left (default now); not in the future */
    shippedAt: Timestamp.optional(),
  })
  .openapi('SalesOrderShip');

/** Online sales orders: PUT/GET /sales-orders/external/{externalId}, GET /sales-orders, GET /sales-orders/{id}, POST /sales-orders/{id}:reserve, :ship, :cancel */
export const salesOrderOperations = {
  // 201 when the (source, externalId) is new, 200 otherwise
  'PUT /sales-orders/external/{externalId}': { params: ExternalIdParam, body: SalesOrderInput, response: SalesOrder, alsoStatuses: [201] },
  'GET /sales-orders': { query: SalesOrderListQuery, response: listEnvelope(SalesOrder) },
  'GET /sales-orders/external/{externalId}': { params: ExternalIdParam, query: SalesOrderExternalQuery, response: SalesOrder },
  'GET /sales-orders/{id}': { params: IdParam, response: SalesOrder },
  'POST /sales-orders/{id}:reserve': { params: IdParam, body: SalesOrderReserve, response: SalesOrder },
  'POST /sales-orders/{id}:ship': { params: IdParam, body: SalesOrderShip, response: SalesOrder },
  'POST /sales-orders/{id}:cancel': { params: IdParam, body: SalesOrderCancel, response: SalesOrder },
};
