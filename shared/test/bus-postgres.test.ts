import { createLogger, createPostgresBus } from '@bop/shared';
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
