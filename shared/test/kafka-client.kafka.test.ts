/**
 * The Kafka client library under the bus adapter (kafkajs 2.2.4, no release since 2023), checked
 * directly against a real Kafka 4.x broker: produce and consume, a consumer group's manual offset
 * commits, a rebalance as a member joins and leaves, and the idempotent producer under concurrent
 * sends. A `*.kafka.test.ts` suite: it runs when the test run has a broker (KAFKA_BROKERS).
 * kafkajs passes every case, concurrent idempotent sends included (it holds a lock per broker while
 * numbering a batch); KafkaBus still publishes one send at a time, which the last case checks.
 *
 * The maintained alternative, @platformatic/kafka, was measured against the same broker and is not
 * used: 1.35.0 (its last release for Node 20; 2.x needs Node 22) acknowledged 20 concurrent
 * idempotent single-message sends to one partition and stored 1 of them, and refused concurrent
 * batches over 3 partitions with OUT_OF_ORDER_SEQUENCE_NUMBER — the idempotent-producer case below.
 */
import { randomBytes } from 'node:crypto';
import { Kafka, logLevel, type Admin, type Consumer, type EachMessagePayload, type Producer } from 'kafkajs';
import { createLogger } from '@bop/shared';
import { kafkaBusFactoryFromEnv } from '../src/bus/kafka';
import type { Bus, BusMessage } from '../src/bus/types';

const brokers = (process.env.KAFKA_BROKERS ?? '').split(',').map((b) => b.trim()).filter(Boolean);
if (brokers.length === 0) throw new Error('a *.kafka.test.ts suite runs only with KAFKA_BROKERS set (see test/global-setup.mjs)');

const prefix = `test-${randomBytes(4).toString('hex')}-client-`;
const kafka = new Kafka({ clientId: 'client-check', brokers, logLevel: logLevel.NOTHING });
let admin: Admin;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  admin = kafka.admin();
  await admin.connect();
});

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  await admin.disconnect();
});

let topics = 0;
async function newTopic(name: string, numPartitions: number): Promise<string> {
  const topic = `${prefix}${name}${++topics}`;
  await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions }] });
  return topic;
}

/** The producer as the adapter makes it: idempotent, one request in flight per broker. */
async function idempotentProducer(): Promise<Producer> {
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  await producer.connect();
  closers.push(() => producer.disconnect());
  return producer;
}

async function groupConsumer(groupId: string): Promise<Consumer> {
  // short heartbeats: members learn of a rebalance within half a second
  const consumer = kafka.consumer({ groupId, heartbeatInterval: 500, sessionTimeout: 10_000, allowAutoTopicCreation: false });
  await consumer.connect();
  closers.push(() => consumer.disconnect());
  return consumer;
}

/** Polls until the condition holds, failing after `ms`. */
async function waitFor(what: string, condition: () => boolean, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Handled {
  member: string;
  partition: number;
  offset: string;
  key: string;
  value: string;
  headers: Record<string, string>;
}

function handled(member: string, into: Handled[]) {
  return ({ partition, message }: EachMessagePayload) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(message.headers ?? {})) headers[k] = String(v);
    into.push({ member, partition, offset: message.offset, key: String(message.key), value: String(message.value), headers });
  };
}

/** Per key, the values in the order they were sent. */
function expectOrderPerKey(seen: Array<{ key: string; value: string }>, sent: Array<{ key: string; value: string }>) {
  for (const key of new Set(sent.map((m) => m.key))) {
    expect(seen.filter((m) => m.key === key).map((m) => m.value)).toEqual(sent.filter((m) => m.key === key).map((m) => m.value));
  }
}

async function storedCount(topic: string): Promise<number> {
  return (await admin.fetchTopicOffsets(topic)).reduce((sum, p) => sum + Number(p.high) - Number(p.low), 0);
}

describe('kafka client (kafkajs) against the broker', () => {
  it('produces and consumes: every record once, in order per key, with its key and headers', async () => {
    const topic = await newTopic('roundtrip', 3);
    const producer = await idempotentProducer();
    const sent = Array.from({ length: 60 }, (_, i) => ({ key: `rec_${i % 5}`, value: `v${i}`, headers: { 'event-id': `evt_${i}`, 'event-type': 'test.thing.happened' } }));
    for (let i = 0; i < sent.length; i += 20) await producer.send({ topic, acks: -1, messages: sent.slice(i, i + 20) });

    const seen: Handled[] = [];
    const consumer = await groupConsumer(`${prefix}roundtrip`);
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({ eachMessage: async (p) => handled('a', seen)(p) });
    await waitFor('60 records', () => seen.length >= sent.length);

    expect(seen.map((m) => m.value).sort()).toEqual(sent.map((m) => m.value).sort());
    expectOrderPerKey(seen, sent);
    for (const key of new Set(sent.map((m) => m.key))) expect(new Set(seen.filter((m) => m.key === key).map((m) => m.partition)).size).toBe(1);
    expect(seen.find((m) => m.value === 'v7')?.headers).toEqual({ 'event-id': 'evt_7', 'event-type': 'test.thing.happened' });
  });

  it('a group commits offsets by hand; the next member resumes right after the last commit', async () => {
    const topic = await newTopic('commits', 1);
    const group = `${prefix}commits`;
    const producer = await idempotentProducer();
    await producer.send({ topic, acks: -1, messages: Array.from({ length: 10 }, (_, i) => ({ key: 'k', value: `v${i}` })) });

    // handles the first 6 and commits each after handling it; what it is handed after that it leaves alone
    const first: Handled[] = [];
    let commits = 0;
    const a = await groupConsumer(group);
    await a.subscribe({ topics: [topic], fromBeginning: true });
    await a.run({
      autoCommit: false,
      eachMessage: async (p) => {
        if (first.length >= 6) return;
        handled('a', first)(p);
        await a.commitOffsets([{ topic, partition: p.partition, offset: (BigInt(p.message.offset) + 1n).toString() }]);
        commits += 1;
      },
    });
    await waitFor('6 handled and committed', () => commits >= 6);
    await a.disconnect();
    const committed = await admin.fetchOffsets({ groupId: group, topics: [topic] });
    expect(committed[0].partitions).toEqual([expect.objectContaining({ partition: 0, offset: '6' })]);

    const second: Handled[] = [];
    const b = await groupConsumer(group);
    await b.subscribe({ topics: [topic], fromBeginning: true });
    await b.run({ autoCommit: false, eachMessage: async (p) => handled('b', second)(p) });
    await waitFor('4 more', () => second.length >= 4);
    expect(first.map((m) => m.value)).toEqual(['v0', 'v1', 'v2', 'v3', 'v4', 'v5']);
    expect(second.map((m) => m.value)).toEqual(['v6', 'v7', 'v8', 'v9']);
  });

  it('rebalances: a joining member takes a share of the partitions, a leaving one hands them back, nothing lost or handled twice', async () => {
    const partitions = 4;
    const topic = await newTopic('rebalance', partitions);
    const group = `${prefix}rebalance`;
    const producer = await idempotentProducer();
    const seen: Handled[] = [];
    const assigned = new Map<string, number[]>();
    let sent: Array<{ key: string; value: string }> = [];
    let round = 0;
    const publishRound = async () => {
      round += 1;
      const messages = Array.from({ length: 40 }, (_, i) => ({ key: `k${i % 8}`, value: `r${round}-${i}` }));
      sent = [...sent, ...messages];
      await producer.send({ topic, acks: -1, messages });
    };
    const member = async (name: string) => {
      const consumer = await groupConsumer(group);
      consumer.on(consumer.events.GROUP_JOIN, (e) => assigned.set(name, [...(e.payload.memberAssignment[topic] ?? [])].sort()));
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      // commits each record after handling it, as the adapter does per batch
      await consumer.run({
        autoCommit: false,
        eachMessage: async (p) => {
          handled(name, seen)(p);
          await consumer.commitOffsets([{ topic, partition: p.partition, offset: (BigInt(p.message.offset) + 1n).toString() }]);
        },
      });
      return consumer;
    };
    const all = Array.from({ length: partitions }, (_, p) => p);

    const a = await member('a');
    await waitFor('a owning every partition', () => assigned.get('a')?.length === partitions);
    await publishRound();
    await waitFor('round 1 handled', () => seen.length >= sent.length);

    const b = await member('b');
    await waitFor('the partitions shared between a and b', () => {
      const [pa, pb] = [assigned.get('a') ?? [], assigned.get('b') ?? []];
      return pa.length > 0 && pb.length > 0 && [...pa, ...pb].sort().join() === all.join();
    });
    await publishRound();
    await waitFor('round 2 handled', () => seen.length >= sent.length);
    const round2 = seen.filter((m) => m.value.startsWith('r2-'));
    expect(new Set(round2.map((m) => m.member))).toEqual(new Set(['a', 'b']));
    for (const m of round2) expect(assigned.get(m.member)).toContain(m.partition);

    await b.disconnect();
    await waitFor('a owning every partition again', () => assigned.get('a')?.length === partitions);
    await publishRound();
    await waitFor('round 3 handled', () => seen.length >= sent.length);
    expect(seen.filter((m) => m.value.startsWith('r3-')).every((m) => m.member === 'a')).toBe(true);

    // nothing lost, nothing handled twice, and per key in send order across both handovers
    expect(seen).toHaveLength(sent.length);
    expect(new Set(seen.map((m) => m.value))).toEqual(new Set(sent.map((m) => m.value)));
    expectOrderPerKey(seen, sent);
    await a.disconnect();
  });

  it('idempotent producer: concurrent sends to one partition each land once, in each sender\'s order', async () => {
    // what @platformatic/kafka 1.35.0 failed: its concurrent idempotent sends were all acknowledged
    // and most of them not stored, or refused with OUT_OF_ORDER_SEQUENCE_NUMBER
    const topic = await newTopic('idem', 1);
    const producer = await idempotentProducer();
    const senders = 20;
    const perSender = 10;
    const results = await Promise.allSettled(
      Array.from({ length: senders }, async (_, s) => {
        for (let i = 0; i < perSender; i++) {
          await producer.send({ topic, acks: -1, messages: [{ key: `s${s}`, value: `s${s}-${i}a` }, { key: `s${s}`, value: `s${s}-${i}b` }] });
        }
      }),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(await storedCount(topic)).toBe(senders * perSender * 2);

    const seen: Handled[] = [];
    const consumer = await groupConsumer(`${prefix}idem`);
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({ eachMessage: async (p) => handled('a', seen)(p) });
    await waitFor('every record', () => seen.length >= senders * perSender * 2);
    const sent = Array.from({ length: senders }, (_, s) => Array.from({ length: perSender }, (_, i) => [`s${s}-${i}a`, `s${s}-${i}b`]).flat().map((value) => ({ key: `s${s}`, value }))).flat();
    expect(seen).toHaveLength(sent.length);
    expectOrderPerKey(seen, sent);
  });

  it('idempotent producer: concurrent batches over several partitions (the bus contract\'s appenders) each land once', async () => {
    const topic = await newTopic('idemmany', 3);
    const producer = await idempotentProducer();
    const writers = 8;
    const sends = 10;
    const results = await Promise.allSettled(
      Array.from({ length: writers }, async (_, w) => {
        for (let i = 0; i < sends; i++) {
          await producer.send({ topic, acks: -1, messages: Array.from({ length: 4 }, (_, j) => ({ key: `w${w}-${j % 3}`, value: `w${w}-${i}-${j}` })) });
        }
      }),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(await storedCount(topic)).toBe(writers * sends * 4);
  });

  it('through the adapter: concurrent publishes (sent one at a time by KafkaBus) each land once, in order per key', async () => {
    const factory = kafkaBusFactoryFromEnv(createLogger('kafka', 'warn'), process.env, { partitions: 3 });
    const bus: Bus = await factory!();
    closers.push(() => bus.close());
    const area = `conc${Date.now()}`;
    const sent: BusMessage[][] = Array.from({ length: 8 }, () => []);
    await Promise.all(
      sent.map(async (mine, w) => {
        for (let i = 0; i < 10; i++) {
          const batch = Array.from({ length: 4 }, (_, j) => {
            const eventId = `evt_${w}_${i}_${j}`;
            return { topic: area, key: `w${w}-${j % 3}`, eventId, type: 'test.thing.happened', payload: { id: eventId } };
          });
          mine.push(...batch);
          await bus.publish(batch);
        }
      }),
    );
    const topic = (await admin.listTopics()).find((t) => t.endsWith(`-${area}`))!;
    expect(await storedCount(topic)).toBe(8 * 10 * 4);

    const seen: Handled[] = [];
    const consumer = await groupConsumer(`${prefix}adapter`);
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({ eachMessage: async (p) => handled('a', seen)(p) });
    await waitFor('every record', () => seen.length >= 320);
    const byId = seen.map((m) => ({ key: m.key, value: m.headers['event-id'] }));
    expect(new Set(byId.map((m) => m.value)).size).toBe(320);
    expectOrderPerKey(byId, sent.flat().map((m) => ({ key: m.key, value: m.eventId })));
  });
});
