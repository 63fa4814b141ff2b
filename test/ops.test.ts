/** The ops CLI as a real process (needs the build: `npm test` builds first). */
import { Client } from 'pg';
import { freshDatabase, type TestDatabase } from '@bop/test-support';
import { runOps } from './ops-cli';

let db: TestDatabase;

/** stdout and stderr together */
async function ops(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  const r = await runOps(args, { ...process.env, DATABASE_URL: db.url, PORT: '1', LOG_LEVEL: 'silent', ...env });
  return { code: r.code, out: r.out + r.err };
}

beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db?.drop();
});

describe('ops CLI', () => {
  it('prints the version', async () => {
    const r = await ops(['version']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^bop \d+\.\d+\.\d+/);
    const json = await ops(['version', '--json']);
    expect(JSON.parse(json.out)).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/), node: process.versions.node });
  });

  it('creates an admin, then a personal key for them', async () => {
    const admin = await ops(['users', 'create-admin', '--email', 'ops@example.com', '--password', 'a-long-password-123']);
    expect(admin.code).toBe(0);
    expect(admin.out).toContain('created owner ops@example.com');
    const dup = await ops(['users', 'create-admin', '--email', 'ops@example.com', '--password', 'a-long-password-123']);
    expect(dup.code).toBe(1);
    const key = await ops(['keys', 'create', '--email', 'ops@example.com', '--name', 'bridge']);
    expect(key.code).toBe(0);
    expect(key.out.trim()).toMatch(/^pk_live_\S+$/);
  });

  it('lists, disables and enables feature switches', async () => {
    expect((await ops(['features', 'disable', 'scheduling'])).code).toBe(0);
    const list = await ops(['features', 'list']);
    expect(list.out).toMatch(/^off\s+scheduling$/m);
    expect(list.out).toMatch(/^off\s+scheduling\.forecasting/m);
    expect((await ops(['features', 'enable', 'scheduling'])).code).toBe(0);
    expect((await ops(['features', 'list'])).out).toMatch(/^on\s+scheduling$/m);
    expect((await ops(['features', 'disable', 'no.such.feature'])).code).toBe(1);
  });

  it('doctor exits 1 and says what is wrong (pending migrations, unreachable database)', async () => {
    const pending = await ops(['doctor']);
    expect(pending.out).toContain('database reachable');
    expect(pending.out).toMatch(/FAIL\s+organization: \d+ migration\(s\) pending/);
    expect(pending.code).toBe(1);
    expect((await ops(['migrate'])).code).toBe(0);
    const good = await ops(['doctor']);
    expect(good.out).toContain('all good');
    expect(good.code).toBe(0);
    const bad = await ops(['doctor'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/FAIL\s+database/);
  });

  it('lists and retries dead letters', async () => {
    const list = await ops(['dead-letters', 'list']);
    expect(list.code).toBe(0);
    expect(list.out).toContain('0 dead letter(s)');
    const retry = await ops(['dead-letters', 'retry']);
    expect(retry.code).toBe(0);
    expect(retry.out).toContain('retried 0, still failing 0');
  });

  it('shows a parked payload as text (a NUL as its escape) and retries it from that text', async () => {
    // an integrations dead letter as the runner parks it: the event's JSON text, `\u0000` escaped
    const event = {
      id: 'evt_OPSNUL',
      type: 'cash.batch.completed',
      createdAt: '2026-11-24T12:00:00.000Z',
      apiVersion: 'v1',
      actor: { type: 'integration', id: 'int_gone' },
      locationId: null,
      data: { object: { batchId: 'bat_OPSNUL', integrationId: 'int_gone', source: 'a\u0000b', endpoint: 'POST /cash/bank-transactions', received: 1, created: 0, updated: 0, rejected: 1, createdAt: '2026-11-24T12:00:00.000Z' } },
    };
    const c = new Client({ connectionString: db.url });
    await c.connect();
    try {
      await c.query(
        `insert into integrations.dead_letters (consumer, event_id, topic, key, type, position, payload, error, attempts) values ('integrations.ingestion-batches', $1, 'cash', 'bat_OPSNUL', $2, '42', $3, 'Error: was failing', 5)`,
        [event.id, event.type, JSON.stringify(event)],
      );
      const list = await ops(['dead-letters', 'list', '--service', 'integrations']);
      expect(list.out).toContain('cash@42');
      expect(list.out).toContain('"source":"a\\u0000b"');
      const retry = await ops(['dead-letters', 'retry', '--service', 'integrations']);
      expect(retry.out).toContain('retried 1, still failing 0');
      expect(retry.code).toBe(0);
      expect((await c.query('select 1 from integrations.dead_letters')).rows).toEqual([]);
    } finally {
      await c.end();
    }
  });

  it('lists integrations and webhook endpoints, and says when an endpoint is unknown', async () => {
    const integrations = await ops(['integrations', 'list']);
    expect(integrations.code).toBe(0);
    expect(integrations.out).toContain('0 integration(s)');
    const webhooks = await ops(['webhooks', 'list']);
    expect(webhooks.code).toBe(0);
    expect(webhooks.out).toContain('0 endpoint(s)');
    const unknown = await ops(['webhooks', 'enable', 'whe_nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.out).toMatch(/whe_nope/);
  });

  it('enables a disabled webhook endpoint and queues its failed deliveries again', async () => {
    expect((await ops(['migrate'])).code).toBe(0);
    const c = new Client({ connectionString: db.url });
    await c.connect();
    try {
      await c.query(
        `insert into webhooks.endpoints (id, url, events, status, disabled_reason, secret, consecutive_failures, created_at, updated_at)
         values ('whe_ops1', 'https://receiver.example/hook', '["item.created"]', 'disabled', 'failures', 'whsec_x', 20, now(), now())`,
      );
      await c.query(
        `insert into webhooks.deliveries (id, endpoint_id, event_id, event_type, record_key, body, status, attempts, schedule_step, created_at, updated_at)
         values ('whd_ops1', 'whe_ops1', 'evt_ops1', 'item.created', 'itm_1', '{}', 'failed', 8, 8, now(), now())`,
      );
      const listed = await ops(['webhooks', 'list']);
      expect(listed.out).toMatch(/whe_ops1\s+disabled\s+pending 0\s+failed 1/);
      const enabled = await ops(['webhooks', 'enable', 'whe_ops1']);
      expect(enabled).toMatchObject({ code: 0 });
      expect(enabled.out).toContain('whe_ops1 enabled');
      const retried = await ops(['webhooks', 'retry-failed', 'whe_ops1']);
      expect(retried).toMatchObject({ code: 0 });
      expect(retried.out).toContain('1 failed deliveries of whe_ops1 queued again');
      const endpoint = (await c.query(`select status, consecutive_failures from webhooks.endpoints where id = 'whe_ops1'`)).rows[0];
      expect(endpoint).toEqual({ status: 'active', consecutive_failures: 0 });
      expect((await c.query(`select status from webhooks.deliveries where id = 'whd_ops1'`)).rows[0].status).toBe('pending');
    } finally {
      await c.end();
    }
  });

  it('refuses unknown commands with usage', async () => {
    const r = await ops(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.out).toContain('usage');
  });
});
