// The distributed mode as separate processes on Kafka with the schema registry, as docker-compose.yml
// runs it, against the test run's broker and registry (distributed-suite.ts). After the flow, a
// consumer written as another team would write it (outside-consumer/consumer.ts: kafkajs and the
// registry client only) reads every area topic of this platform from the beginning and decodes
// every event the flow caused.
import { distributedSuite } from './distributed-suite';
import { consumeAll, type ConsumedEvent } from './outside-consumer/consumer';

const objectOf = (e: ConsumedEvent) => ((e.event.data as { object?: Record<string, unknown> } | undefined)?.object ?? {}) as Record<string, unknown>;

distributedSuite({
  bus: 'kafka',
  afterFlow: async (flow, { topicPrefix }) => {
    const seen = (got: ConsumedEvent[], type: string, match: (o: Record<string, unknown>) => boolean) => got.some((e) => e.event.type === type && match(objectOf(e)));
    const got = await consumeAll({
      brokers: process.env.KAFKA_BROKERS!.split(','),
      registryUrl: process.env.SCHEMA_REGISTRY_URL!,
      topics: [new RegExp(`^${topicPrefix}[a-z][a-z0-9_]*$`)],
      groupId: `${topicPrefix}outside-team`,
      until: (got) =>
        seen(got, 'location.created', (o) => o.id === flow.locationId) &&
        seen(got, 'item.created', (o) => o.id === flow.itemId) &&
        seen(got, 'stock.level_changed', (o) => o.itemId === flow.itemId && o.onHand === '7'),
    });
    for (const e of got) {
      // every value in the registry's wire format, decoded by its schema id; key and headers as documented
      expect(e.schemaId).not.toBeNull();
      expect(e.key).toBeTruthy();
      expect(e.headers['event-id']).toBe(e.event.id);
      expect(e.headers['event-type']).toBe(e.event.type);
      expect(e.event.apiVersion).toBe('v1');
    }
    const types = new Set(got.map((e) => String(e.event.type)));
    for (const t of ['location.created', 'item.created', 'stock.level_changed']) expect(types).toContain(t);
  },
});
