/**
 * The ingestion pipeline survives a crash between commit and publish (spec: ingestion rules 1, 5, 11):
 * the batch committed but the process died before its relay published and before the POS saw the 202.
 * The POS re-sends; the restarted service answers `unchanged` and records no second event; the relay
 * publishes what was committed; a relay that dies after publishing but before marking re-publishes
 * the same event ids, and a consumer applies each transaction once.
 */
import { ConsumerRunner, createLogger, createPostgresBus, defineConsumer, startService, type Bus, type ConsumedMessage, type RunningService } from '@bop/shared';
import { salesService } from '../src';
import { eventually, freshDatabase, http, integration, testKeys, topicSoFar, type TestDatabase } from '@bop/test-support';

let db: TestDatabase;
let bus: Bus;
const pos = integration(['sales:write', 'sales:read']);

async function startSales(relay: boolean): Promise<RunningService<any>> {
  const { keys } = await testKeys();
  return startService(salesService, {
    databaseUrl: db.url,
    internalPublicKeyPem: keys.publicKeyPem,
    bus,
    relay,
    port: 0,
    host: '127.0.0.1',
    env: { LOG_LEVEL: 'silent', RELAY_POLL_MS: '100', BUS_POLL_MS: '100' },
    logger: createLogger('sales', 'silent'),
  });
}

async function send(svc: RunningService<any>, transactions: unknown[]) {
  const { signer } = await testKeys();
  return http(svc.url, 'POST', '/sales/transactions:batch', { body: { source: 'pos-crash', transactions }, headers: { 'x-internal-token': await signer.sign(pos) } });
}

const sale = (externalId: string) => ({
  externalId,
  locationId: 'loc_crash',
  occurredAt: '2026-11-20T15:00:00Z',
  lines: [{ itemSku: 'TEA', name: 'Tea', quantity: '2', unitPrice: '2.50' }],
  tenders: [{ type: 'card', amount: '5.00' }],
  subtotal: '5.00',
  tax: '0.00',
  total: '5.00',
  currency: 'EUR',
});

async function salesOnBus(): Promise<ConsumedMessage[]> {
  return (await topicSoFar(bus, db.url, 'sales')).filter((m) => m.type === 'sales.transactions.recorded');
}

beforeAll(async () => {
  db = await freshDatabase();
  bus = await createPostgresBus({ connectionString: db.url, log: createLogger('bus', 'silent'), pollMs: 100 });
});
afterAll(async () => {
  await bus?.close();
  await db?.drop();
});

it('answers the re-sent batch unchanged, publishes each committed event once, and a consumer applies each transaction once', async () => {
  const batch = [sale('C-1'), sale('C-2'), sale('C-3')];
  const first = await startSales(false);
  const sql = (svc: RunningService<any>, q: string, p: unknown[] = []): Promise<any[]> => svc.runtime.orm.em.getConnection().execute(q, p);
  await sql(first, `insert into sales.locations (id, external_id, timezone, business_day_cutoff, status, updated_at) values ('loc_crash', null, 'Europe/Paris', '04:00', 'active', now())`);
  const committed = await send(first, batch);
  expect(committed.status).toBe(202);
  expect(committed.body.created).toBe(3);
  // the process dies here: committed, never published, and the POS never read the answer
  await first.close();
  expect(await salesOnBus()).toEqual([]);

  const second = await startSales(true);
  try {
    const resent = await send(second, batch);
    expect(resent.status).toBe(202);
    expect(resent.body).toMatchObject({ received: 3, created: 0, updated: 0, unchanged: 3 });
    expect(resent.body.results.map((r: any) => r.id)).toEqual(committed.body.results.map((r: any) => r.id));
    expect(await sql(second, `select count(*)::int as n from sales.transactions where source = 'pos-crash'`)).toEqual([{ n: 3 }]);
    const recorded = await sql(second, `select event_id from sales.outbox where type = 'sales.transactions.recorded'`);
    expect(recorded).toHaveLength(1); // the re-send recorded nothing new

    const published = await eventually(async () => {
      const onBus = await salesOnBus();
      return onBus.length > 0 ? onBus : undefined;
    });
    expect(published.map((m) => m.eventId)).toEqual([recorded[0].event_id]);
    expect((published[0].payload as any).data.object.transactions.map((t: any) => t.externalId)).toEqual(['C-1', 'C-2', 'C-3']);

    // a consumer (inventory, cash …) keeps what it applied; the kit's runner skips an event id it has processed
    await sql(second, `create table sales.crash_test_applied (event_id text not null, transaction_id text not null)`);
    const counter = defineConsumer({
      name: 'crash-test-counter',
      topics: ['sales'],
      types: ['sales.transactions.recorded'],
      async handle({ em, event }) {
        for (const t of (event.data.object as any).transactions) await em.execute(`insert into sales.crash_test_applied values (?, ?)`, [event.id, t.id]);
      },
    });
    const runner = new ConsumerRunner([counter], { service: 'sales-test', schema: 'sales', orm: second.runtime.orm, bus, log: createLogger('runner', 'silent') });
    await runner.start();
    try {
      await eventually(async () => (await sql(second, `select 1 from sales.crash_test_applied`)).length === 3);
      // the relay dies after publishing, before marking the row: the next leader publishes it again, same event id
      await sql(second, `update sales.outbox set published_at = null where event_id = ?`, [recorded[0].event_id]);
      await eventually(async () => (await salesOnBus()).length === 2);
      const twice = await salesOnBus();
      expect(twice.map((m) => m.eventId)).toEqual([recorded[0].event_id, recorded[0].event_id]);
      // a later sale on the topic as a barrier: the runner reads the topic in order, so once it applied
      // the later one it has handled the duplicate before it (no waiting for something not to happen)
      const later = await send(second, [sale('C-4')]);
      expect(later.body.created).toBe(1);
      await eventually(async () => (await sql(second, `select 1 from sales.crash_test_applied where transaction_id = ?`, [later.body.results[0].id])).length === 1);
      const applied = await sql(second, `select transaction_id, count(*)::int as n from sales.crash_test_applied group by transaction_id order by transaction_id`);
      expect(applied.map((a) => a.n)).toEqual([1, 1, 1, 1]);
      expect(applied.map((a) => a.transaction_id)).toEqual([...committed.body.results.map((r: any) => r.id), later.body.results[0].id].sort());
    } finally {
      await runner.stop();
    }
  } finally {
    await second.close();
  }
});
