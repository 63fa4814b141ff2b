// The distributed mode as separate processes on Kafka with the schema registry, as docker-compose.yml
// runs it, against the test run's broker and registry (distributed-suite.ts). After the flow, a
// consumer written as another team would write it (outside-consumer/consumer.ts: kafkajs and the
// registry client only) reads every area topic of this platform from the beginning and decodes
// every event the flow caused. Inventory runs twice: its two processes share its consumer groups'
// partitions, and the sale is still depleted once (stock 10 → 7, not 4).
import { AssignerProtocol, Kafka, logLevel } from 'kafkajs';
import { eventually } from '@bop/test-support';
import { distributedSuite } from './distributed-suite';
import { consumeAll, type ConsumedEvent } from './outside-consumer/consumer';

const objectOf = (e: ConsumedEvent) => ((e.event.data as { object?: Record<string, unknown> } | undefined)?.object ?? {}) as Record<string, unknown>;

/** The group's members and the partitions of `topic` each was given, once the group is stable. */
async function groupAssignments(groupId: string, topic: string): Promise<number[][]> {
  const kafka = new Kafka({ clientId: 'group-reader', brokers: process.env.KAFKA_BROKERS!.split(','), logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  try {
    return await eventually(
      async () => {
        const { groups } = await admin.describeGroups([groupId]);
        const group = groups[0];
        if (group?.state !== 'Stable' || group.members.length < 2) return undefined;
        return group.members.map((m) => AssignerProtocol.MemberAssignment.decode(m.memberAssignment)?.assignment[topic] ?? []);
      },
      60_000,
      500,
    );
  } finally {
    await admin.disconnect();
  }
}

distributedSuite({
  bus: 'kafka',
  replicas: ['inventory'],
  afterFlow: async (flow, { topicPrefix }) => {
    // inventory's two processes in its sales-depletion group: two members, the sales topic's partitions split between them
    const assignments = await groupAssignments(`${topicPrefix}inventory.sales-depletion`, `${topicPrefix}sales`);
    expect(assignments).toHaveLength(2);
    for (const partitions of assignments) expect(partitions.length).toBeGreaterThan(0);
    const all = assignments.flat().sort((a, b) => a - b);
    expect(new Set(all).size).toBe(all.length);

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
