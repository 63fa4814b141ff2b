/** `ops status` and `ops doctor` as real processes: each problem doctor knows makes it exit 1 with its reason. */
import { Client } from 'pg';
import { busSchemaSql } from '@bop/shared';
import { freshDatabase, type TestDatabase } from '@bop/test-support';
import { runOps } from './ops-cli';

let db: TestDatabase;
let c: Client;

const ops = (args: string[], env: Record<string, string> = {}) => runOps(args, { ...process.env, DATABASE_URL: db.url, PORT: '1', LOG_LEVEL: 'silent', ...env });

beforeAll(async () => {
  db = await freshDatabase();
  c = new Client({ connectionString: db.url });
  await c.connect();
});
afterAll(async () => {
  await c?.end();
  await db?.drop();
});

describe('ops status and doctor', () => {
  it('a migrated, quiet database: doctor all good, status lists every service', async () => {
    expect((await ops(['migrate'])).code).toBe(0);
    for (const sql of busSchemaSql) await c.query(sql);
    const doctor = await ops(['doctor']);
    expect(doctor.out).toContain('all good');
    expect(doctor.out).toMatch(/ok\s+webhooks: 0 endpoint\(s\), none disabled/);
    expect(doctor.out).toContain('info  API not running');
    expect(doctor.code).toBe(0);
    const status = await ops(['status']);
    expect(status.code).toBe(0);
    expect(status.out).toMatch(/^API http:\/\/127\.0\.0\.1:1: not running/m);
    expect(status.out).toMatch(/^\s+sales\s+migrations current; outbox 0 unpublished; dead letters 0$/m);
    expect(status.out).toContain('bus: postgres, head 0');
    expect(status.out).toMatch(/webhooks: 0 endpoint\(s\), 0 disabled; queue 0 pending, 0 failed/);
    const json = JSON.parse((await ops(['status', '--json'])).out);
    expect(json.api.state).toBe('not running');
    expect(json.database).toBe('reachable');
    expect(json.services.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(['identity', 'sales', 'webhooks', 'integrations']));
    expect(JSON.parse((await ops(['doctor', '--json'])).out)).toMatchObject({ ok: true, problems: [] });
  });

  it('exits 1 naming a stalled relay, a lagging consumer group, dead letters and a disabled endpoint', async () => {
    await c.query(`insert into sales.outbox (event_id, type, aggregate_type, aggregate_id, payload, created_at) values ('evt_STALL', 'x.y', 'x', '1', '{}', now() - interval '1 hour')`);
    await c.query(`insert into bus.messages (topic, key, event_id, type, payload) select 'sales', 'k', 'evt_M' || g, 'x.y', '{}' from generate_series(1, 5) g`);
    await c.query(`insert into bus.positions (group_id, position) values ('inventory.sales', 0)`);
    await c.query(
      `insert into integrations.dead_letters (consumer, event_id, topic, key, type, position, payload, error, attempts) values ('integrations.x', 'evt_DL', 'cash', 'k', 'x.y', '1', '{}', 'Error: boom', 5)`,
    );
    await c.query(`insert into webhooks.endpoints (id, url, events, status, disabled_reason, secret, created_at, updated_at) values ('whe_OFF', 'https://hooks.example.com/x', '["*"]', 'disabled', 'failures', 'whsec_x', now(), now())`);

    const doctor = await ops(['doctor', '--max-lag', '3']);
    expect(doctor.code).toBe(1);
    expect(doctor.out).toMatch(/FAIL\s+sales: relay stalled: 1 outbox event\(s\) unpublished, the oldest \d+s old \(over 300s\)/);
    expect(doctor.out).toMatch(/FAIL\s+bus: consumer group inventory.sales is 5 message\(s\) behind \(over 3\)/);
    expect(doctor.out).toMatch(/FAIL\s+integrations: 1 dead letter\(s\)/);
    expect(doctor.out).toMatch(/FAIL\s+webhooks: 1 endpoint\(s\) disabled \(whe_OFF https:\/\/hooks.example.com\/x\)/);
    expect(doctor.out).toContain('4 problem(s) found');
    const json = JSON.parse((await ops(['doctor', '--json', '--max-lag', '3'])).out);
    expect(json.ok).toBe(false);
    expect(json.problems).toHaveLength(4);
    // the thresholds move: a longer stall allowance and a larger lag leave the other two
    const relaxed = await ops(['doctor', '--stall-seconds', '7200', '--max-lag', '100']);
    expect(relaxed.out).toContain('2 problem(s) found');
    expect(relaxed.code).toBe(1);
    expect((await ops(['doctor', '--max-lag', 'lots'])).code).toBe(2);

    const status = JSON.parse((await ops(['status', '--json'])).out);
    expect(status.services.find((s: { name: string }) => s.name === 'sales').outbox).toMatchObject({ unpublished: 1 });
    expect(status.bus.groups).toEqual([expect.objectContaining({ group: 'inventory.sales', behind: 5 })]);
    expect(status.webhooks.disabled).toEqual([{ id: 'whe_OFF', url: 'https://hooks.example.com/x' }]);
  });

  it('exits 1 when the database cannot be reached', async () => {
    const bad = { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' };
    const status = await ops(['status'], bad);
    expect(status.code).toBe(1);
    expect(status.out).toContain('database: not reachable');
    const doctor = await ops(['doctor', '--json'], bad);
    expect(doctor.code).toBe(1);
    expect(JSON.parse(doctor.out).problems[0]).toMatch(/^database: /);
  });
});
