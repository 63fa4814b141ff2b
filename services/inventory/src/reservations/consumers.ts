import { defineConsumer, now, type ConsumerDef } from '@bop/shared';
import { releaseStock } from './store';

/** spec (supplement): `:cancel` — "reserved stock is released": inventory gives it back when sales announces the cancellation. */
export const releaseOnCancel = defineConsumer({
  name: 'order-release',
  topics: ['sales'],
  types: ['sales_order.cancelled'],
  async handle({ em, event }) {
    const order = event.data.object as { id?: string };
    if (!order.id) throw new Error(`${event.type} ${event.id}: data.object lacks id`);
    await releaseStock(em, order.id!, now(), null);
  },
});

export const reservationsConsumers: ConsumerDef[] = [releaseOnCancel];
