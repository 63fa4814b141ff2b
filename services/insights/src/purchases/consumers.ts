import { PurchaseOrder, ReceiptRecordedObject } from '@bop/contracts';
import { defineConsumer, type ConsumerDef } from '@bop/shared';
import { eventObject } from '../stock/event-object';
import { applyOrder, applyReceipt } from './store';

const OrderObject = PurchaseOrder.pick({ id: true, supplierId: true, locationId: true, status: true, expectedDeliveryDate: true, lines: true, version: true });

/** Consumer of purchasing's internal `purchasing.receipt.recorded`: the price paid per item and supplier over time. */
export const purchasePriceConsumer = defineConsumer({
  name: 'purchase-price-read-model',
  topics: ['purchasing'],
  types: ['purchasing.receipt.recorded'],
  handle: (ctx) => applyReceipt(ctx, eventObject(ReceiptRecordedObject, ctx.event, 'a receipt')),
});

/** Consumer of purchasing's `purchase_order.*` and internal `purchasing.purchase_order.cancelled`: deliveries still to come. */
export const openOrderConsumer = defineConsumer({
  name: 'purchase-order-read-model',
  topics: ['purchasing'],
  types: ['purchase_order.created', 'purchase_order.approved', 'purchase_order.sent', 'purchase_order.received', 'purchasing.purchase_order.cancelled'],
  handle: (ctx) => applyOrder(ctx, eventObject(OrderObject, ctx.event, 'a purchase order')),
});

export const purchaseConsumers: ConsumerDef[] = [purchasePriceConsumer, openOrderConsumer];
