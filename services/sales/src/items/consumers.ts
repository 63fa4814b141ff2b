import { ItemEventObject } from '@bop/contracts';
import { defineConsumer, type ConsumerDef } from '@bop/shared';
import { itemReadThrough } from './replica-store';

/**
 * Keeps `sales.items` (what lines match against) from inventory's item events. An item whose
 * reference now matches an open unmapped-items entry is not mapped automatically: new lines match it
 * directly, past ones wait for a person to confirm (the list shows it as `suggestedItemId`).
 */
export const itemReplicaConsumer = defineConsumer({
  name: 'item-replica',
  topics: ['inventory'],
  types: ['item.created', 'item.updated'],
  async handle(ctx) {
    const { event } = ctx;
    const parsed = ItemEventObject.safeParse(event.data.object);
    if (!parsed.success) {
      // a producer's bug: parked in dead_letters rather than dropped
      const fields = parsed.error.issues.map((i) => i.path.join('.') || '(object)').join(', ');
      throw new Error(`${event.type} ${event.id}: data.object is not an ItemEventObject (${fields})`);
    }
    await itemReadThrough.upsert(ctx.em, ctx.schema, [parsed.data]);
  },
});


export const itemsConsumers: ConsumerDef[] = [itemReplicaConsumer];
