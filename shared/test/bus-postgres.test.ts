import { createLogger, createPostgresBus } from '@bop/shared';
import type { Subscription } from '../src/bus/types';
import { freshDatabase, type TestDatabase } from '@bop/test-support';
import { busContract } from './bus-contract';

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db?.drop();
});

busContract('postgres', () => createPostgresBus({ connectionString: db.url, log: createLogger('bus', 'silent'), pollMs: 100 }));

describe('postgres bus: settleMs', () => {
  it('lets what arrives during the pause after a batch gather into the next one', async () => {
    const bus = await createPostgresBus({ connectionString: db.url, log: createLogger('bus', 'silent'), pollMs: 100 });
    const msg = (n: number) => ({ topic: 'settle', key: 'k', eventId: `evt_SETTLE_${n}`, type: 'test.settle', payload: { n } });
    const batches: number[][] = [];
    const sub = await bus.subscribe({
      group: 'settle-group',
      topics: ['settle'],
      settleMs: 400,
      handler: async (batch) => {
        batches.push(batch.map((m) => (m.payload as { n: number }).n));
      },
    });
    try {
      await bus.publish([msg(1)]);
      const deadline = Date.now() + 10_000;
      while (batches.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      // published one by one during the pause: handed over together once it ends
      for (const n of [2, 3, 4]) {
        await bus.publish([msg(n)]);
        await new Promise((r) => setTimeout(r, 50));
      }
      while (batches.flat().length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(batches).toEqual([[1], [2, 3, 4]]);
    } finally {
      await sub.stop();
      await bus.close();
    }
  });
});

describe('postgres bus: typesNow and topic wake-ups', () => {
  const log = createLogger('bus', 'silent');
  const msg = (topic: string, type: string, n: number) => ({ topic, key: 'k', eventId: `evt_NOW_${topic}_${n}`, type, payload: { n } });
  const until = async (done: () => boolean, ms = 10_000) => {
    const deadline = Date.now() + ms;
    while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  };

  it('reads only the types wanted at each read, moving past the rest; none wanted moves to the end unread', async () => {
    // a slow poll: only a notification for its topic wakes the group
    const bus = await createPostgresBus({ connectionString: db.url, log, pollMs: 60_000 });
    let wanted: string[] = [];
    let asked = 0;
    const got: string[] = [];
    const topic = `now${Date.now()}`;
    const group = `g-now-${Date.now()}`;
    const sub = await bus.subscribe({
      group,
      topics: [topic],
      typesNow: async () => {
        asked += 1;
        return wanted;
      },
      handler: async (batch) => {
        got.push(...batch.map((m) => m.eventId));
      },
    });
    // the group's read is done when its position is past everything appended (lag 0): the barrier
    const caughtUp = async () => {
      for (let lag = 1; lag > 0; ) lag = (await bus.groupLag!([group]))[0]?.lag ?? 1;
    };
    let other: Subscription | undefined;
    try {
      await bus.publish([msg(topic, 'test.a', 1), msg(topic, 'test.b', 2)]);
      await until(() => asked >= 1);
      await caughtUp();
      expect(got).toEqual([]); // nothing wanted: both passed unread
      wanted = ['test.b'];
      await bus.publish([msg(topic, 'test.a', 3), msg(topic, 'test.b', 4)]);
      await until(() => got.length >= 1);
      await caughtUp();
      // the earlier test.b (appended before it was wanted) is not read again
      expect(got).toEqual([`evt_NOW_${topic}_4`]);
      // a message of another topic does not wake the group (its poll is a minute): a group of that
      // topic on the same bus, woken by the same notification, has read it when the check is made
      const before = asked;
      let otherGot = 0;
      other = await bus.subscribe({ group: `${group}-other`, topics: [`${topic}-other`], handler: async (b) => void (otherGot += b.length) });
      await bus.publish([msg(`${topic}-other`, 'test.b', 5)]);
      await until(() => otherGot >= 1);
      expect(otherGot).toBe(1);
      expect(asked).toBe(before);
    } finally {
      await other?.stop();
      await sub.stop();
      await bus.close();
    }
  });
});

describe('postgres bus: forget', () => {
  it('deletes a group\'s position: it lags behind nothing, and a later subscription of that name starts afresh', async () => {
    const bus = await createPostgresBus({ connectionString: db.url, log: createLogger('bus', 'silent'), pollMs: 100 });
    try {
      await bus.publish([{ topic: 'forget', key: 'k', eventId: 'evt_FORGET_1', type: 'test.forget', payload: { n: 1 } }]);
      const read = async () => {
        const seen: string[] = [];
        let got!: () => void;
        const done = new Promise<void>((resolve) => (got = resolve));
        const sub = await bus.subscribe({ group: 'forget-group', topics: ['forget'], handler: async (batch) => {
          seen.push(...batch.map((m) => m.eventId));
          got();
        } });
        await done;
        await sub.stop();
        return seen;
      };
      expect(await read()).toEqual(['evt_FORGET_1']);
      expect(await bus.groupLag!(['forget-group'])).toEqual([{ group: 'forget-group', lag: 0 }]);
      await bus.forget!('forget-group');
      expect(await bus.groupLag!(['forget-group'])).toEqual([]);
      // from the start again
      expect(await read()).toEqual(['evt_FORGET_1']);
    } finally {
      await bus.close();
    }
  });
});
