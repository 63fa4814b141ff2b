import { ItemEventObject, ItemStatesAnswer } from '@bop/contracts';
import { defineConsumer, readThroughReplica, type ConsumerDef, type EntityManager } from '@bop/shared';

/**
 * Keeps `sales.items` (what lines match against) from inventory's item events. An item whose
 * reference now matches an open unmapped-items entry is not mapped automatically: new lines match it
 * directly, past ones wait for a person to confirm (the list shows it as `suggestedItemId`).
 */
export const itemReplicaConsumer = defineConsumer({
  name: 'item-replica',
  topics: ['inventory'],
  types: ['item.created', 'item.updated'],
  async handle({ em, event }) {
    const parsed = ItemEventObject.safeParse(event.data.object);
    if (!parsed.success) {
      // a producer's bug: parked in dead_letters rather than dropped
      const fields = parsed.error.issues.map((i) => i.path.join('.') || '(object)').join(', ');
      throw new Error(`${event.type} ${event.id}: data.object is not an ItemEventObject (${fields})`);
    }
    await itemReadThrough.upsert(em, 'sales', [parsed.data]);
  },
});

/** Writes items into `sales.items`, each only over an older state (a replayed older event, or a read-through answer older than an event). */
async function upsertItems(em: EntityManager, schema: string, items: ItemEventObject[]): Promise<void> {
  for (const o of items) {
    await em.execute(
      `insert into "${schema}"."items" ("id", "sku", "barcodes", "external_id", "name", "status", "updated_at")
       values (?, ?, array(select jsonb_array_elements_text(?::jsonb)), ?, ?, ?, ?)
       on conflict ("id") do update set
         "sku" = excluded."sku", "barcodes" = excluded."barcodes", "external_id" = excluded."external_id",
         "name" = excluded."name", "status" = excluded."status", "updated_at" = excluded."updated_at"
       where "items"."updated_at" <= excluded."updated_at"`,
      [o.id, o.sku, JSON.stringify([...new Set(o.barcodes)]), o.externalId, o.name, o.status, new Date(o.updatedAt)],
    );
  }
}

/** The read-through of `sales.items`: inventory's `POST /internal/items:states` (by id). */
export const itemReadThrough = readThroughReplica<{ ids: string[] }, ItemEventObject>({
  owner: 'inventory',
  path: '/internal/items:states',
  what: 'read items',
  rows: (answer) => ItemStatesAnswer.parse(answer).data,
  upsert: upsertItems,
  isEmpty: (q) => q.ids.length === 0,
});

export const itemsConsumers: ConsumerDef[] = [itemReplicaConsumer];
