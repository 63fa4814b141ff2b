/**
 * Faults on Kafka (BUS=kafka, the all-in-one runtime on its embedded Postgres):
 * - poison on a topic — bytes that are no event, and an event of the right type and the wrong shape —
 *   is parked in the consumer's `dead_letters`, and the sales after it are depleted (not retried forever);
 * - the runtime killed with `kill -9` while POS clients send sales (its relays and consumers mid-batch):
 *   after the restart every acknowledged sale is stored once and depleted once (the consumers' dedupe
 *   by event id absorbs what Kafka redelivers past the last committed offset);
 * - the broker itself killed and started again mid-flow (a broker of this file's own, on the same log
 *   directory): the same, once it is back, with nothing restarted by hand.
 */
import { randomBytes } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { newId } from '@bop/shared';
import { onHand, sale, sendSales, startStack, storedSales, waitFor, must, type Stack } from './support';

const { startKafkaLocal } = require('../../deploy/kafka-local/kafka-local.cjs') as {
  startKafkaLocal(o?: { registry?: boolean }): Promise<{ brokers: string; stopBroker(signal?: string): Promise<void>; startBroker(): Promise<void>; stop(): Promise<void> }>;
};

jest.setTimeout(240_000);

const kafkaEnv = (topicPrefix: string, brokers = process.env.KAFKA_BROKERS!, registry = process.env.SCHEMA_REGISTRY_URL) => ({
  BUS: 'kafka',
  KAFKA_BROKERS: brokers,
  ...(registry ? { SCHEMA_REGISTRY_URL: registry } : {}),
  KAFKA_TOPIC_PREFIX: topicPrefix,
  // a poison is parked after two attempts (the retry policy is the consumer runner tests' subject)
  CONSUMER_MAX_ATTEMPTS: '2',
});

/** Every stored sale (and the probe) depleted once: on hand is minus their count. */
async function expectDepletedOnce(stack: Stack, prefix: string, extra = 0): Promise<void> {
  const stored = await storedSales(stack, prefix);
  expect([...stored.values()].every((n) => n === 1)).toBe(true);
  const expected = String(-(stored.size + 1 + extra));
  const settled = await waitFor(60_000, async () => (await onHand(stack)) === expected);
  expect(settled ? expected : await onHand(stack)).toBe(expected);
}

describe('fault on Kafka: poison on a topic, then the runtime killed mid-batch', () => {
  const topicPrefix = `fk${randomBytes(3).toString('hex')}-`;
  let stack: Stack;

  beforeAll(async () => {
    if (!process.env.KAFKA_BROKERS) throw new Error('the Kafka suites run with the test run\'s broker (test/global-setup.mjs)');
    stack = await startStack(kafkaEnv(topicPrefix));
  }, 200_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('parks poison in dead_letters and goes on with the sales after it', async () => {
    const kafka = new Kafka({ clientId: 'poisoner', brokers: process.env.KAFKA_BROKERS!.split(','), logLevel: logLevel.NOTHING });
    const producer = kafka.producer();
    await producer.connect();
    const shapeless = newId('event');
    const bytes = newId('event');
    try {
      await producer.send({
        topic: `${topicPrefix}sales`,
        acks: -1,
        messages: [
          // not an event at all: the adapter hands it on undecodable, the runner parks it as it is
          { key: stack.locationId, value: Buffer.from('\u0001 not json'), headers: { 'event-id': bytes, 'event-type': 'sales.transactions.recorded' } },
          // an envelope of the right type whose data the consumer cannot apply
          {
            key: stack.locationId,
            value: JSON.stringify({ id: shapeless, type: 'sales.transactions.recorded', createdAt: new Date().toISOString(), apiVersion: 'v1', actor: { type: 'system', id: null }, locationId: stack.locationId, data: { object: { locationId: stack.locationId, reason: 'ingested', transactions: 'all of them' } } }),
            headers: { 'event-id': shapeless, 'event-type': 'sales.transactions.recorded' },
          },
        ],
      });
    } finally {
      await producer.disconnect();
    }
    // a sale after the poison, on the same key (the location): depleted once the poison is parked
    await must(stack.rt.base, 'POST', '/api/v1/sales/transactions:batch', { source: 'fault-pos', transactions: [sale('PZ-1', stack.sku)] }, stack.key);
    await expectDepletedOnce(stack, 'PZ');
    const db = await stack.db();
    const parked = await waitFor(30_000, async () => {
      const { rows } = await db.query<{ event_id: string; error: string }>(`select event_id, error from inventory.dead_letters where event_id = any($1)`, [[shapeless, bytes]]);
      return rows.length === 2 ? rows : null;
    });
    expect(parked?.map((r) => r.event_id).sort()).toEqual([shapeless, bytes].sort());
    expect(parked?.find((r) => r.event_id === bytes)?.error).toMatch(/undecodable/);
  });

  it('loses and duplicates nothing acknowledged when the runtime is killed mid-batch, and depletes each sale once', async () => {
    const before = Number(await onHand(stack));
    const load = sendSales(stack, { prefix: 'KK', batches: 30, size: 40, clients: 2, deadlineMs: 90_000 });
    await waitFor(30_000, async () => load.ackedBatches() >= 6);
    const ackedBeforeKill = load.acked.size;
    await stack.rt.kill('SIGKILL');
    await stack.rt.restart();
    await load.done;

    expect(ackedBeforeKill).toBeGreaterThan(0);
    expect(load.ackedBatches()).toBe(30);
    expect(load.statuses['500'] ?? 0).toBe(0);
    const stored = await storedSales(stack, 'KK');
    for (const id of load.acked) expect([id, stored.get(id)]).toEqual([id, 1]);
    expect(stored.size).toBe(load.acked.size);
    // the probe and PZ-1 came before: on hand was `before`; each KK sale takes one more
    const expected = String(before - stored.size);
    const settled = await waitFor(60_000, async () => (await onHand(stack)) === expected);
    expect(settled ? expected : await onHand(stack)).toBe(expected);
  });
});

describe('fault on Kafka: the broker killed and started again mid-flow', () => {
  const topicPrefix = `fb${randomBytes(3).toString('hex')}-`;
  let kafka: Awaited<ReturnType<typeof startKafkaLocal>>;
  let stack: Stack;

  beforeAll(async () => {
    // a broker of this test's own (the run's other suites keep theirs), the run's registry
    kafka = await startKafkaLocal({ registry: false });
    stack = await startStack(kafkaEnv(topicPrefix, kafka.brokers));
  }, 240_000);

  afterAll(async () => {
    await stack?.stop();
    await kafka?.stop();
  });

  it('loses and duplicates nothing acknowledged, and every sale is depleted once when the broker is back', async () => {
    const load = sendSales(stack, { prefix: 'BR', batches: 24, size: 25, clients: 2, deadlineMs: 120_000, pauseMs: 100 });
    await waitFor(30_000, async () => load.ackedBatches() >= 5);
    await kafka.stopBroker('SIGKILL');
    // sales are still taken while the broker is away (the outbox holds their events)
    const during = load.ackedBatches();
    await waitFor(15_000, async () => load.ackedBatches() >= during + 3);
    await kafka.startBroker();
    await load.done;

    expect(load.ackedBatches()).toBe(24);
    expect(load.statuses['500'] ?? 0).toBe(0);
    const stored = await storedSales(stack, 'BR');
    for (const id of load.acked) expect([id, stored.get(id)]).toEqual([id, 1]);
    expect(stored.size).toBe(load.acked.size);
    await expectDepletedOnce(stack, 'BR');
  });
});
