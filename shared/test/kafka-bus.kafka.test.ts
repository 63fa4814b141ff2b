/**
 * The Kafka adapter with what a relay that fell behind sends: one publish of many large events on
 * one key (a POS batch's `sales.transactions.recorded`, ~150 KB each) — together far over the broker's
 * 1 MiB batch limit — and an event over the limit on its own. All are stored and read back in order,
 * and the publishes after them go through (a refused batch once jammed the idempotent producer).
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { createLogger, newId, type Bus, type BusMessage } from '@bop/shared';
import { kafkaBusFactoryFromEnv } from '../src/bus/kafka';
import { collect } from './bus-contract';

const factory = kafkaBusFactoryFromEnv(createLogger('kafka', 'warn'), process.env, { partitions: 3 });
if (!factory) throw new Error('a *.kafka.test.ts suite runs only with KAFKA_BROKERS set (see test/global-setup.mjs)');

jest.setTimeout(60_000);

function large(topic: string, key: string, bytes: number): BusMessage {
  const eventId = newId('event');
  return { topic, key, eventId, type: 'test.batch.recorded', payload: { id: eventId, type: 'test.batch.recorded', data: { object: { key, filler: 'x'.repeat(bytes) } } } };
}

describe('kafka bus with the schema registry: an event its schema refuses', () => {
  it('goes out as plain JSON with an error logged, and the events after it go out as usual', async () => {
    if (!process.env.SCHEMA_REGISTRY_URL) throw new Error('the Kafka suites run with SCHEMA_REGISTRY_URL (test/global-setup.mjs)');
    const lines: Array<Record<string, unknown>> = [];
    const log = pino({ level: 'warn' }, new Writable({ write: (chunk, _enc, cb) => (lines.push(JSON.parse(String(chunk))), cb()) }));
    const bus = await kafkaBusFactoryFromEnv(log, process.env, { partitions: 3, schemaRegistryUrl: process.env.SCHEMA_REGISTRY_URL })!();
    try {
      const topic = `organization${Date.now()}`;
      const envelope = (object: Record<string, unknown>) => {
        const id = newId('event');
        return { topic, key: String(object.id), eventId: id, type: 'location.created', payload: { id, type: 'location.created', createdAt: new Date().toISOString(), apiVersion: 'v1', actor: { type: 'system', id: null }, locationId: String(object.id), data: { object } } };
      };
      const location = { id: newId('location'), name: 'Harbour St', externalId: null, timezone: 'UTC', businessDayCutoff: '04:00', status: 'active', orgUnitId: null, address: null, version: 1, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString(), archivedAt: null };
      const bad = envelope({ id: location.id, name: 42 });
      await bus.publish([bad]);
      const after = envelope(location);
      await bus.publish([after]);
      const seen = await collect(bus, `g-${topic}`, [topic], (got) => got.length >= 2, undefined, 40_000);
      expect(seen.map((m) => m.eventId)).toEqual([bad.eventId, after.eventId]);
      expect(seen[0].payload).toEqual(bad.payload);
      expect(lines.some((l) => l.eventId === bad.eventId && l.type === 'location.created' && /plain JSON/.test(String(l.msg)))).toBe(true);
      // the valid one went in the registry's format, as usual
      expect(lines.filter((l) => l.eventId === after.eventId)).toEqual([]);
    } finally {
      await bus.close();
    }
  });
});

describe('kafka bus: a backlog of large events', () => {
  let bus: Bus;
  beforeAll(async () => {
    bus = await factory();
  });
  afterAll(async () => {
    await bus?.close();
  });

  it('stores 10 × 150 KB on one key, a 1.5 MB event, and what follows, in order', async () => {
    const topic = `backlog${Date.now()}`;
    const backlog = Array.from({ length: 10 }, () => large(topic, 'loc_1', 150_000));
    const huge = large(topic, 'loc_1', 1_500_000);
    const after = large(topic, 'loc_1', 10);
    await bus.publish(backlog);
    await bus.publish([huge]);
    await bus.publish([after]);
    const sent = [...backlog, huge, after];

    const seen = await collect(bus, `g-backlog-${Date.now()}`, [topic], (got) => got.length >= sent.length, undefined, 40_000);
    expect(seen.map((m) => m.eventId)).toEqual(sent.map((m) => m.eventId));
    expect((seen[10].payload.data as { object: { filler: string } }).object.filler).toHaveLength(1_500_000);
  });
});
