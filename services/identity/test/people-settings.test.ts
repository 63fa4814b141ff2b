import { integration, outboxEvents, sql, startTestService, system, type TestService } from '@bop/test-support';
import { identityService, ownerEnv } from './fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(identityService, ownerEnv);
});
afterAll(() => t?.close());

const paths = (body: { errors: Array<{ path: string }> }) => body.errors.map((e) => e.path).sort();

describe('company settings: positions and employee retention', () => {
  test('default to no positions and 2555 days', async () => {
    const r = await t.call('GET', '/company-settings', { as: integration(['organization:read']) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ positions: [], employeeRetentionDays: 2555 });
  });

  test('set (trimmed, in the order given), replace, keep when absent; each change one event carrying them', async () => {
    const before = (await t.call('GET', '/company-settings')).body;
    const set = await t.call('PATCH', '/company-settings', {
      body: { positions: ['  Line cook ', 'Server', 'Host'], employeeRetentionDays: 30 },
      headers: { 'if-match': `"${before.version}"` },
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ positions: ['Line cook', 'Server', 'Host'], employeeRetentionDays: 30, version: before.version + 1 });
    const [row] = await sql(t, 'select positions, employee_retention_days from identity.company_settings');
    expect(row).toEqual({ positions: ['Line cook', 'Server', 'Host'], employee_retention_days: 30 });

    // absent keeps, the same values change nothing
    const other = await t.call('PATCH', '/company-settings', { body: { name: 'Acme Foods' } });
    expect(other.body).toMatchObject({ positions: ['Line cook', 'Server', 'Host'], employeeRetentionDays: 30 });
    const same = await t.call('PATCH', '/company-settings', { body: { positions: ['Line cook', 'Server', 'Host'], employeeRetentionDays: 30 } });
    expect(same.body.version).toBe(other.body.version);

    const replaced = await t.call('PATCH', '/company-settings', { body: { positions: ['Dishwasher'], employeeRetentionDays: 36500 } });
    expect(replaced.body).toMatchObject({ positions: ['Dishwasher'], employeeRetentionDays: 36500 });
    const emptied = await t.call('PATCH', '/company-settings', { body: { positions: [] } });
    expect(emptied.body.positions).toEqual([]);
    expect((await t.call('GET', '/company-settings')).body).toEqual(emptied.body);

    const events = (await outboxEvents(t, 'identity', { type: 'identity.company_settings.updated' })).map((e) => e.payload);
    expect(events).toHaveLength(4);
    expect(events[0]).toMatchObject({ type: 'identity.company_settings.updated', apiVersion: 'v1', locationId: null, actor: { type: 'user' } });
    expect(events[0].data.object).toMatchObject({ positions: ['Line cook', 'Server', 'Host'], employeeRetentionDays: 30 });
    expect(events[0].data.previous).toEqual({ positions: [], employeeRetentionDays: 2555 });
    expect(events[1].data.object).toMatchObject({ name: 'Acme Foods', positions: ['Line cook', 'Server', 'Host'], employeeRetentionDays: 30 });
    expect(events[1].data.previous).toEqual({ name: before.name });
    expect(events[2].data.previous).toEqual({ positions: ['Line cook', 'Server', 'Host'], employeeRetentionDays: 30 });
    expect(events[3].data).toEqual({ object: emptied.body, previous: { positions: ['Dishwasher'] } });
  });

  test('a position listed twice (without case) → 422 at its index; nothing stored', async () => {
    const before = (await t.call('GET', '/company-settings')).body;
    const r = await t.call('PATCH', '/company-settings', { body: { positions: ['Line cook', 'Server', 'Host', 'SERVER', ' line cook '] } });
    expect(r.status).toBe(422);
    expect(paths(r.body)).toEqual(['positions[3]', 'positions[4]']);
    expect((await t.call('GET', '/company-settings')).body).toEqual(before);
  });

  test('bad positions and retention days → 422 with field paths', async () => {
    const before = (await t.call('GET', '/company-settings')).body;
    const labels = await t.call('PATCH', '/company-settings', { body: { positions: ['Cook', '   ', 'x'.repeat(61), 7, 'y'.repeat(60)] } });
    expect(labels.status).toBe(422);
    expect(paths(labels.body)).toEqual(['positions[1]', 'positions[2]', 'positions[3]']);

    const many = await t.call('PATCH', '/company-settings', { body: { positions: Array.from({ length: 201 }, (_, i) => `Position ${i}`) } });
    expect(many.status).toBe(422);
    expect(paths(many.body)).toEqual(['positions']);
    const most = await t.call('PATCH', '/company-settings', { body: { positions: Array.from({ length: 200 }, (_, i) => `Position ${i}`) } });
    expect(most.status).toBe(200);
    expect(most.body.positions).toHaveLength(200);

    expect(paths((await t.call('PATCH', '/company-settings', { body: { positions: null } })).body)).toEqual(['positions']);
    expect(paths((await t.call('PATCH', '/company-settings', { body: { positions: 'Cook' } })).body)).toEqual(['positions']);
    for (const bad of [29, 36501, 365.5, '2555', null]) {
      const r = await t.call('PATCH', '/company-settings', { body: { employeeRetentionDays: bad } });
      expect(r.status).toBe(422);
      expect(paths(r.body)).toEqual(['employeeRetentionDays']);
    }
    expect((await t.call('GET', '/company-settings')).body.employeeRetentionDays).toBe(before.employeeRetentionDays);
    await t.call('PATCH', '/company-settings', { body: { positions: before.positions } });
  });

  test('GET /internal/company-settings carries them', async () => {
    await t.call('PATCH', '/company-settings', { body: { positions: ['Barista', 'Baker'], employeeRetentionDays: 1825 } });
    const internal = await t.call('GET', '/internal/company-settings', { as: system });
    expect(internal.status).toBe(200);
    expect(internal.body).toMatchObject({ positions: ['Barista', 'Baker'], employeeRetentionDays: 1825 });
    expect(internal.body).toEqual((await t.call('GET', '/company-settings')).body);
  });
});
