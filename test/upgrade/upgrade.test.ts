/**
 * Migrations keep data (issue 37): a database written by the previous release (commit 345d978,
 * before the unit of work: release-345d978.sql.gz, written by make-fixture.fixture.ts through its
 * API) starts under this release with nothing lost, and the events this release writes for the same
 * calls keep the envelope the previous one wrote, key for key and in the same order (consumers and
 * webhook receivers parse the same bytes).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Client } from 'pg';
import { freshDatabase, http, OWNER, Receiver, sql, startTestRuntime, type TestRuntime } from '@bop/test-support';
import { writeReleaseData, type ReleaseData } from './release-data';

const FIXTURE = path.join(__dirname, 'release-345d978.sql.gz');

/** The dump as SQL a client can send (pg_dump's psql-only `\restrict` lines dropped) and what the release wrote. */
function fixture(): { sql: string; written: ReleaseData } {
  const text = gunzipSync(readFileSync(FIXTURE)).toString('utf8');
  const written = JSON.parse(/^-- written by make-fixture\.fixture\.ts: (.*)$/m.exec(text)![1]) as ReleaseData;
  return { sql: text.replace(/^\\(un)?restrict .*$/gm, ''), written };
}

/** The keys of an envelope, in order, down through objects (an event's bytes follow them). */
function shape(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
  return Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'object' && v !== null && !Array.isArray(v) ? shape(v) : 'value']);
}

let t: TestRuntime;
let receiver: Receiver;
const { sql: dump, written } = fixture();
const upgradeStarted = new Date();

beforeAll(async () => {
  receiver = await Receiver.start();
  const database = await freshDatabase();
  const c = new Client({ connectionString: database.url });
  await c.connect();
  await c.query(dump);
  await c.end();
  // the fixture's events are older than any retention: keep them to compare
  t = await startTestRuntime({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', OUTBOX_RETENTION_HOURS: '1000000', BUS_RETENTION_HOURS: '1000000' }, { database });
}, 180_000);
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const get = async (p: string) => {
  const r = await http(t.rt.url, 'GET', `/api/v1${p}`, { headers: t.owner });
  expect({ path: p, status: r.status }).toEqual({ path: p, status: 200 });
  return r.body;
};

it('starts on the previous release\'s database with everything it wrote', async () => {
  expect((await get(`/locations/${written.locationId}`)).externalId).toBe('REL-1');
  expect((await get(`/items/${written.itemId}`)).sku).toBe('REL-COLA');
  expect((await get(`/stock-levels?itemId=${written.itemId}&locationId=${written.locationId}`)).data[0].onHand).toBe('7');
  expect((await get(`/employees/${written.employeeId}`)).legalLastName).toBe('Sousa');
  expect((await get(`/cash/counts/${written.countId}`)).amount).toBe('6.00');
  expect((await get(`/suppliers/${written.supplierId}`)).name).toBe('Supplier REL');
  expect((await get(`/cash/business-days?locationId=${written.locationId}&from=${written.day}&to=${written.day}`)).data[0].figures.expectedCash).toBe('6.00');
  const sales = await get(`/sales/transactions?locationId=${written.locationId}`);
  expect(sales.data.map((s: { externalId: string }) => s.externalId)).toEqual(['REL-SALE-1']);
  const [endpoint] = (await get('/webhook-endpoints')).data;
  const deliveries = await get(`/webhook-endpoints/${endpoint.id}/deliveries`);
  expect(deliveries.data.some((d: { eventType?: string; type?: string }) => (d.eventType ?? d.type) === 'stock.level_changed')).toBe(true);
}, 120_000);

it('writes the same calls\' events with the envelope the previous release wrote', async () => {
  await writeReleaseData(t.rt.url, OWNER, receiver, 'NEW');
  const schemas = (await sql(t.db.url, `select table_schema from information_schema.tables where table_name = 'outbox' order by 1`)).map((r) => r.table_schema as string);
  const before = new Map<string, unknown>();
  const after = new Map<string, unknown>();
  for (const schema of schemas) {
    const rows = await sql(t.db.url, `select "type", "created_at", "payload"::text as "payload" from "${schema}"."outbox" order by "seq"`);
    for (const r of rows) {
      const into = new Date(r.created_at) < upgradeStarted ? before : after;
      if (!into.has(r.type)) into.set(r.type, shape(JSON.parse(r.payload)));
    }
  }
  const both = [...before.keys()].filter((type) => after.has(type));
  // the flow's events on both sides: organization, inventory, sales, people, cash, integrations
  expect(both).toEqual(expect.arrayContaining(['location.created', 'item.created', 'sales.transactions.recorded', 'stock.level_changed', 'employee.created', 'cash.count_completed', 'integrations.integration.registered']));
  for (const type of both) expect({ type, shape: after.get(type) }).toEqual({ type, shape: before.get(type) });
}, 240_000);
