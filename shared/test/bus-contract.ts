/**
 * The bus contract: every adapter must pass it. Run against `postgres` always, against Kafka when
 * KAFKA_BROKERS is set (see bus-postgres.test.ts and bus-kafka.test.ts).
 */
import type { Bus, BusMessage, ConsumedMessage } from '@bop/shared';
import { newId } from '@bop/shared';

let n = 0;
export function message(topic: string, key: string, extra: Partial<BusMessage> = {}): BusMessage {
  n += 1;
  const eventId = newId('event');
  return { topic, key, eventId, type: 'test.thing.happened', payload: { id: eventId, type: 'test.thing.happened', data: { object: { key, n } } }, ...extra };
}

/** Per key, the messages arrive in the order they were published (across keys, adapters may interleave). */
function expectOrderPerKey(seen: ConsumedMessage[], sent: BusMessage[]) {
  for (const key of new Set(sent.map((m) => m.key))) {
    expect(seen.filter((m) => m.key === key).map((m) => m.eventId)).toEqual(sent.filter((m) => m.key === key).map((m) => m.eventId));
  }
}

/** Subscribes until `until` holds for what arrived (or `ms` passed), then stops; answers what arrived. */
export async function collect(bus: Bus, group: string, topics: string[], until: (seen: ConsumedMessage[]) => boolean, handler?: (b: ConsumedMessage[]) => Promise<void>, ms = 20_000) {
  const seen: ConsumedMessage[] = [];
  let done!: () => void;
  const finished = new Promise<void>((r) => (done = r));
  const sub = await bus.subscribe({
    group,
    topics,
    batchSize: 50,
    handler: async (batch) => {
      if (handler) await handler(batch);
      seen.push(...batch);
      if (until(seen)) done();
    },
  });
  const timer = setTimeout(done, ms);
  await finished;
  clearTimeout(timer);
  await sub.stop();
  return seen;
}

export function busContract(name: string, makeBus: () => Promise<Bus>, topicOf: (t: string) => string = (t) => t) {
  describe(`bus contract: ${name}`, () => {
    let bus: Bus;
    beforeAll(async () => {
      bus = await makeBus();
    });
    afterAll(async () => {
      await bus?.close();
    });

    it('delivers every published message to a group, in publish order, once the handler resolves', async () => {
      const topic = topicOf(`orders${Date.now()}`);
      const sent = Array.from({ length: 120 }, (_, i) => message(topic, `rec_${i % 7}`));
      await bus.publish(sent.slice(0, 60));
      await bus.publish(sent.slice(60));
      const seen = await collect(bus, `g-order-${Date.now()}`, [topic], (s) => s.length >= sent.length);
      expect(new Set(seen.map((m) => m.eventId))).toEqual(new Set(sent.map((m) => m.eventId)));
      expectOrderPerKey(seen, sent);
      const first = seen.find((m) => m.eventId === sent[0].eventId);
      expect(first).toMatchObject({ topic, key: 'rec_0', type: 'test.thing.happened', payload: sent[0].payload });
    });

    it('gives each group its own position', async () => {
      const topic = topicOf(`groups${Date.now()}`);
      const sent = Array.from({ length: 10 }, (_, i) => message(topic, `k${i}`));
      await bus.publish(sent);
      const a = await collect(bus, `g-a-${Date.now()}`, [topic], (s) => s.length >= 10);
      const b = await collect(bus, `g-b-${Date.now()}`, [topic], (s) => s.length >= 10);
      for (const seen of [a, b]) {
        expect(new Set(seen.map((m) => m.eventId))).toEqual(new Set(sent.map((m) => m.eventId)));
        expectOrderPerKey(seen, sent);
      }
    });

    it('redelivers a batch whose handler failed, and does not move past it', async () => {
      const topic = topicOf(`retry${Date.now()}`);
      const sent = [message(topic, 'r1'), message(topic, 'r1')];
      await bus.publish(sent);
      let failures = 0;
      const seen = await collect(
        bus,
        `g-retry-${Date.now()}`,
        [topic],
        (s) => s.length >= 2,
        async () => {
          if (failures < 2) {
            failures += 1;
            throw new Error('handler down');
          }
        },
      );
      expect(failures).toBe(2);
      expect(seen.map((m) => m.eventId)).toEqual(sent.map((m) => m.eventId));
    });

    it('resumes a group where it left off', async () => {
      const topic = topicOf(`resume${Date.now()}`);
      const group = `g-resume-${Date.now()}`;
      const first = [message(topic, 'a'), message(topic, 'a')];
      await bus.publish(first);
      await collect(bus, group, [topic], (s) => s.length >= 2);
      const second = [message(topic, 'a')];
      await bus.publish(second);
      const seen = await collect(bus, group, [topic], (s) => s.length >= 1);
      expect(seen.map((m) => m.eventId)).toEqual(second.map((m) => m.eventId));
    });

    it('never skips or duplicates a message under concurrent appenders while a reader reads', async () => {
      const topic = topicOf(`conc${Date.now()}`);
      const writers = 8;
      const perWriter = 40;
      const sent: string[] = [];
      const reading = collect(bus, `g-conc-${Date.now()}`, [topic], (s) => s.length >= writers * perWriter, undefined, 60_000);
      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          for (let i = 0; i < perWriter; i += 4) {
            const batch = Array.from({ length: 4 }, (_, j) => message(topic, `w${w}-${(i + j) % 3}`));
            sent.push(...batch.map((m) => m.eventId));
            await bus.publish(batch);
          }
        }),
      );
      const seen = await reading;
      const ids = seen.map((m) => m.eventId);
      expect(new Set(ids).size).toBe(ids.length);
      expect(new Set(ids)).toEqual(new Set(sent));
      // per key: in the order its writer published (across keys, partitions may interleave)
      for (const key of new Set(seen.map((m) => m.key))) {
        const mine = seen.filter((m) => m.key === key).map((m) => m.eventId);
        expect(mine).toEqual(sent.filter((id) => mine.includes(id)));
      }
    });

    it('hands a group that lists types every message of those types, moving past the others', async () => {
      const topic = topicOf(`types${Date.now()}`);
      const group = `g-types-${Date.now()}`;
      const wanted = (k: string) => message(topic, k, { type: 'test.wanted.happened' });
      const first = [wanted('w1'), message(topic, 'x1'), message(topic, 'x2'), wanted('w1')];
      await bus.publish(first);
      const collectWanted = async (n: number) => {
        const got: ConsumedMessage[] = [];
        let done!: () => void;
        const finished = new Promise<void>((r) => (done = r));
        const sub = await bus.subscribe({ group, topics: [topic], types: ['test.wanted.happened'], handler: async (b) => {
          got.push(...b.filter((m) => m.type === 'test.wanted.happened'));
          if (got.length >= n) done();
        } });
        const timer = setTimeout(done, 20_000);
        await finished;
        clearTimeout(timer);
        await sub.stop();
        return got;
      };
      expect((await collectWanted(2)).map((m) => m.eventId)).toEqual([first[0].eventId, first[3].eventId]);
      const later = [message(topic, 'x3'), wanted('w2')];
      await bus.publish(later);
      expect((await collectWanted(1)).map((m) => m.eventId)).toEqual([later[1].eventId]);
    });

    it('reads only its topics, or every topic with *', async () => {
      const t1 = topicOf(`ta${Date.now()}`);
      const t2 = topicOf(`tb${Date.now()}`);
      const m1 = message(t1, 'x');
      const m2 = message(t2, 'y');
      await bus.publish([m1, m2]);
      const only = await collect(bus, `g-only-${Date.now()}`, [t2], (s) => s.length >= 1);
      expect(only.map((m) => m.eventId)).toEqual([m2.eventId]);
      const all = await collect(bus, `g-all-${Date.now()}`, ['*'], (s) => [m1, m2].every((x) => s.some((m) => m.eventId === x.eventId)));
      const ids = all.map((m) => m.eventId);
      expect(ids).toEqual(expect.arrayContaining([m1.eventId, m2.eventId]));
    });
  });
}
