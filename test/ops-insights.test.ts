/** `ops insights rebuild` as a real process (needs the build: `npm test` builds first): the read models rebuilt from the Postgres bus. */
import { createLogger, createPostgresBus } from '@bop/shared';
import { freshDatabase, sql, type TestDatabase } from '@bop/test-support';
import { runOps } from './ops-cli';

let db: TestDatabase;

/** stdout and stderr together */
async function ops(args: string[]): Promise<{ code: number; out: string }> {
  const r = await runOps(args, { ...process.env, DATABASE_URL: db.url, PORT: '1', LOG_LEVEL: 'silent' });
  return { code: r.code, out: r.out + r.err };
}

beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db?.drop();
});

it('replays the sales the bus keeps into insights\' read models, printing its progress', async () => {
  const bus = await createPostgresBus({ connectionString: db.url, log: createLogger('bus', 'silent') });
  const transaction = (id: string, subtotal: string) => ({ id, externalId: id, version: 1, occurredAt: '2026-11-21T17:00:00Z', businessDay: '2026-11-21', type: 'sale', status: 'completed', subtotal, tax: '0.00', total: subtotal, currency: 'USD' });
  const event = (id: string, transactions: unknown[]) => ({ id, type: 'sales.transactions.recorded', createdAt: '2026-11-21T17:00:01Z', apiVersion: 'v1', actor: { type: 'system', id: null }, locationId: 'loc_ops', data: { object: { source: 'pos', locationId: 'loc_ops', reason: 'ingested', transactions } } });
  await bus.publish([
    { topic: 'sales', key: 'loc_ops', eventId: 'evt_ops_1', type: 'sales.transactions.recorded', payload: event('evt_ops_1', [transaction('stx_ops_1', '40.00'), transaction('stx_ops_2', '2.50')]) },
    { topic: 'sales', key: 'loc_ops', eventId: 'evt_ops_2', type: 'sales.transactions.recorded', payload: event('evt_ops_2', [transaction('stx_ops_3', '7.50')]) },
  ]);
  await bus.close();

  const r = await ops(['insights', 'rebuild']);
  expect([r.code, r.out]).toEqual([0, expect.stringContaining('rebuilt from 2 events')]);
  expect(r.out).toMatch(/sales_days\s+0 rows before\s+1 after/);
  const [day] = await sql(db.url, `select net_sales::text as net, transactions from insights.sales_days where location_id = 'loc_ops'`);
  expect(day).toEqual({ net: '50.000000', transactions: 3 });

  // again: the same rows, from the same events
  const again = await ops(['insights', 'rebuild', '--json']);
  expect(again.code).toBe(0);
  expect(JSON.parse(again.out)).toMatchObject({ applied: 2, skipped: [], rows: { sales_days: { before: 1, after: 1 }, sales_contributions: { before: 3, after: 3 } } });

  // an event its consumer refuses (a producer's bug): reported and left out, the others applied, exit 1
  const bad = await createPostgresBus({ connectionString: db.url, log: createLogger('bus', 'silent') });
  await bad.publish([{ topic: 'sales', key: 'loc_ops', eventId: 'evt_ops_bad', type: 'sales.transactions.recorded', payload: event('evt_ops_bad', 'no transactions' as never) }]);
  await bad.close();
  const refused = await ops(['insights', 'rebuild']);
  expect(refused.code).toBe(1);
  expect(refused.out).toContain('skipped sales.transactions.recorded evt_ops_bad');
  expect(await sql(db.url, `select net_sales::text as net from insights.sales_days where location_id = 'loc_ops'`)).toEqual([{ net: '50.000000' }]);
});
