import { defineConsumer, type ConsumerDef } from '@bop/shared';
import { releaseStock } from './store';

/** spec (supplement): `:cancel` — "reserved stock is released": inventory gives it back when sales announces the cancellation. */
export const releaseOnCancel = defineConsumer({
  name: 'order-release',
  topics: ['sales'],
  types: ['sales_order.cancelled'],
  async handle(ctx) {
    const { event } = ctx;
    const order = event.data.object as { id?: string };
    if (!order.id) throw new Error(`${event.type} ${event.id}: data.object lacks id`);
    await releaseStock(ctx, order.id!);
  },
});

export const reservationsConsumers: ConsumerDef[] = [releaseOnCancel];
