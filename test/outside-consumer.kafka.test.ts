/**
 * Another team's view of the platform on Kafka: a flow's events published through the platform's
 * Kafka bus with the Schema Registry (as the services' relays publish their outboxes), read back by
 * test/outside-consumer/consumer.ts, which knows nothing of this repository. Every event arrives,
 * decodes to the envelope published, and names the schema registered under its type's subject.
 */
import { randomBytes } from 'node:crypto';
import { CashCount, EventEnvelope, Location, StockLevel } from '@bop/contracts';
import { createLogger, type Bus, type BusMessage } from '@bop/shared';
import { createKafkaBus } from '../shared/src/bus/kafka';
import { eventSubject, eventTypeJsonSchema } from '../shared/src/bus/schemas';
import { consumeAll } from './outside-consumer/consumer';

const brokers = (process.env.KAFKA_BROKERS ?? '').split(',').map((b) => b.trim()).filter(Boolean);
const registryUrl = process.env.SCHEMA_REGISTRY_URL;
if (brokers.length === 0 || !registryUrl) throw new Error('a *.kafka.test.ts suite runs with KAFKA_BROKERS and SCHEMA_REGISTRY_URL (npm run kafka:local prints both)');

const run = randomBytes(4).toString('hex');
const prefix = `test-${run}-`;
const at = '2026-11-21T09:30:00.000Z';
const user = { type: 'user' as const, id: 'usr_01JD0000000000000000000001' };
const locationId = 'loc_01JD00000000000000000000L1';
let sequence = 0;

/** A bus message as a service's relay makes it of an outbox row: topic = the service, key = the record's id. */
function event(topic: string, key: string, type: string, object: Record<string, unknown>, previous?: Record<string, unknown>): BusMessage {
  const id = `evt_01JD${run}${String(++sequence).padStart(12, '0')}`;
  const payload = { id, type, createdAt: at, apiVersion: 'v1', actor: user, locationId, data: previous ? { object, previous } : { object } };
  EventEnvelope.parse(payload);
  return { topic, key, eventId: id, type, payload, headers: { traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01` } };
}

const location = Location.parse({
  id: locationId,
  name: 'Harbor St',
  externalId: 'store-17',
  timezone: 'Europe/Berlin',
  businessDayCutoff: '04:00',
  orgUnitId: null,
  address: { line1: '1 Harbour St', city: 'Hamburg', country: 'DE' },
  status: 'active',
  version: 1,
  createdAt: at,
  updatedAt: at,
  archivedAt: null,
});
const renamed = { ...location, name: 'Harbour St', version: 2 };
const count = CashCount.parse({
  id: 'ccn_01JD00000000000000000000C1',
  locationId,
  businessDay: '2026-11-21',
  type: 'drawer',
  drawerId: 'front-1',
  countedAt: at,
  amount: '180.00',
  denominations: [{ value: '20.00', quantity: 9, amount: '180.00' }],
  openingFloat: '100.00',
  expected: '200.00',
  overShort: '-20.00',
  threshold: { amount: '5.00', percent: null },
  exceeded: true,
  explanation: 'opening float 100.00 + cash sales 100.00',
  note: null,
  countedBy: user,
  createdAt: at,
});
const stock = StockLevel.parse({
  itemId: 'itm_01JD00000000000000000000I1',
  locationId,
  onHand: '11',
  reserved: '0',
  available: '11',
  averageCost: '0.4000',
  value: '4.4000',
  parLevel: '40',
  reorderPoint: '12',
  belowReorderPoint: true,
  version: 7,
  updatedAt: at,
});
const sale = { source: 'pos', locationId, reason: 'ingested', transactions: [{ id: 'stx_01JD00000000000000000000S1', businessDay: '2026-11-21', lines: [{ itemId: stock.itemId, quantity: '1' }] }] };

// a morning at one location: it opens, is renamed, sells (sales' internal event), stock falls, the drawer is short
const flow: BusMessage[][] = [
  [event('organization', locationId, 'location.created', location)],
  [event('organization', locationId, 'location.updated', renamed, { name: location.name })],
  [event('sales', locationId, 'sales.transactions.recorded', sale)],
  [
    event('inventory', `${stock.itemId}:${locationId}`, 'stock.level_changed', { ...stock }, { onHand: '12', available: '12' }),
    event('inventory', `${stock.itemId}:${locationId}`, 'stock.below_reorder_point', { ...stock }),
  ],
  [event('cash', count.id, 'cash.count_completed', { ...count }), event('cash', count.id, 'cash.over_short_exceeded', { ...count })],
];
const published = flow.flat();

async function registry(path: string): Promise<any> {
  const res = await fetch(`${registryUrl}${path}`);
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

describe('an outside consumer (kafkajs and the registry client only) reads the platform\'s topics', () => {
  let bus: Bus;

  beforeAll(async () => {
    bus = await createKafkaBus({ brokers, clientId: 'outside-consumer-test', topicPrefix: prefix, schemaRegistryUrl: registryUrl, ensureTopics: true, partitions: 3, log: createLogger('kafka', 'warn') });
    for (const batch of flow) await bus.publish(batch);
  });

  afterAll(async () => {
    await bus?.close();
  });

  it('gets every event of the flow: the envelope published, keyed by record id, with event-id and event-type headers', async () => {
    const got = await consumeAll({
      brokers,
      registryUrl,
      topics: [new RegExp(`^${prefix}[a-z_]+$`)],
      groupId: `outside-${run}`,
      until: (received) => received.length >= published.length,
    });
    expect(got).toHaveLength(published.length);
    const byId = new Map(got.map((g) => [g.headers['event-id'], g]));
    for (const m of published) {
      const g = byId.get(m.eventId);
      expect(g).toBeDefined();
      expect(g!.topic).toBe(`${prefix}${m.topic}`);
      expect(g!.key).toBe(m.key);
      expect(g!.headers).toEqual({ 'event-id': m.eventId, 'event-type': m.type, traceparent: m.headers!.traceparent });
      expect(g!.event).toEqual(m.payload);
    }
    // one key, one partition: a record's events arrive in the order published
    const ofLocation = got.filter((g) => g.key === locationId && g.topic === `${prefix}organization`).map((g) => g.headers['event-type']);
    expect(ofLocation).toEqual(['location.created', 'location.updated']);

    // each value names the schema registered under its type's subject (TopicRecordNameStrategy), BACKWARD
    for (const g of got) {
      const type = g.headers['event-type'];
      const subject = eventSubject(g.topic, type);
      expect(g.schemaId).toEqual(expect.any(Number));
      expect(await registry(`/schemas/ids/${g.schemaId}/versions`)).toContainEqual({ subject, version: 1 });
      expect(JSON.parse((await registry(`/schemas/ids/${g.schemaId}`)).schema)).toEqual(eventTypeJsonSchema(type));
      expect(await registry(`/config/${encodeURIComponent(subject)}`)).toEqual({ compatibilityLevel: 'BACKWARD' });
    }
    // public types carry their own schema; sales' internal event the generic envelope
    expect(new Set(got.map((g) => g.schemaId)).size).toBe(published.length);
    expect(JSON.parse((await registry(`/schemas/ids/${byId.get(published[2].eventId)!.schemaId}`)).schema).title).toBe('Event');
  });

  it('an event its type\'s schema does not describe still goes out, as plain JSON a reader can tell apart', async () => {
    // refusing it would stop the service's relay for good (every retry refused); the producer logs it
    const { name: _name, ...nameless } = renamed;
    const bad = event('organization', locationId, 'location.updated', nameless);
    await bus.publish([bad]);
    const got = await consumeAll({
      brokers,
      registryUrl,
      topics: [`${prefix}organization`],
      groupId: `outside-${run}-plain`,
      until: (received) => received.some((r) => r.headers['event-id'] === bad.eventId),
    });
    const plain = got.find((r) => r.headers['event-id'] === bad.eventId)!;
    expect(plain.schemaId).toBeNull();
    expect(plain.event).toEqual(bad.payload);
  });
});
