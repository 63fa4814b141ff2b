import { features, permissionNames } from '@bop/contracts';
import { integration, outboxEvents, startTestService, system, type TestService } from '@bop/test-support';
import { identityService, newUser, ownerEnv, roleId } from './fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(identityService, ownerEnv);
});
afterAll(() => t?.close());

describe('roles', () => {
  test('built-in roles: owner has every permission, manager no administration, employee a small set', async () => {
    const r = await t.call('GET', '/roles');
    const byKey = Object.fromEntries(r.body.data.map((role: { key: string }) => [role.key, role]));
    expect(byKey.owner.permissions.sort()).toEqual([...permissionNames].sort());
    expect(byKey.manager.permissions).toContain('sales.read');
    expect(byKey.manager.permissions).not.toContain('users.manage');
    expect(byKey.manager.permissions).not.toContain('api_keys.manage');
    expect(byKey.employee.permissions).toEqual(expect.arrayContaining(['checklists.complete', 'recognition.give']));
    expect(byKey.employee.permissions).not.toContain('api_keys.personal');
    expect(byKey.owner.builtIn).toBe(true);
  });

  test('create checks every permission name against the catalogue (422 at permissions[i])', async () => {
    const bad = await t.call('POST', '/roles', { body: { name: 'Shift lead', permissions: ['nope.read', 'schedules.read'] } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([expect.objectContaining({ path: 'permissions[0]' })]);
    const ok = await t.call('POST', '/roles', { body: { name: 'Shift lead', description: 'runs a shift', permissions: ['schedules.read', 'schedules.read', 'checklists.manage'] } });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ name: 'Shift lead', permissions: ['checklists.manage', 'schedules.read'], builtIn: false, status: 'active', version: 1 });
    expect((await t.call('POST', '/roles', { body: { name: 'shift LEAD', permissions: [] } })).status).toBe(409);
    expect((await outboxEvents(t, 'identity', { type: 'identity.role.created' })).map((e) => e.aggregate_id)).toEqual([ok.body.id]);
  });

  test('built-in roles cannot be changed or archived', async () => {
    const owner = await roleId(t, 'owner');
    expect((await t.call('PATCH', `/roles/${owner}`, { body: { name: 'Boss' } })).status).toBe(409);
    expect((await t.call('DELETE', `/roles/${owner}`)).status).toBe(409);
  });

  test('patch with If-Match; archive refused while assigned, allowed after', async () => {
    const role = await t.call('POST', '/roles', { body: { name: 'Counter', permissions: ['stock_counts.count'] } });
    const stale = await t.call('PATCH', `/roles/${role.body.id}`, { body: { permissions: ['waste.record'] }, headers: { 'if-match': '"5"' } });
    expect(stale.body.code).toBe('version_mismatch');
    const changed = await t.call('PATCH', `/roles/${role.body.id}`, { body: { permissions: ['waste.record'] }, headers: { 'if-match': '"1"' } });
    expect(changed.body).toMatchObject({ permissions: ['waste.record'], version: 2 });

    const u = await newUser(t);
    await t.call('PUT', `/users/${u.id}/assignments`, { body: { assignments: [{ roleId: role.body.id, reach: { type: 'locations', ids: ['loc_1'] } }] } });
    const refused = await t.call('DELETE', `/roles/${role.body.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('conflict');
    await t.call('PUT', `/users/${u.id}/assignments`, { body: { assignments: [] } });
    const archived = await t.call('DELETE', `/roles/${role.body.id}`);
    expect(archived.body.status).toBe('archived');
    expect((await t.call('GET', '/roles?status=archived')).body.data.map((r: { id: string }) => r.id)).toEqual([role.body.id]);
    // an archived role cannot be assigned
    const assign = await t.call('PUT', `/users/${u.id}/assignments`, { body: { assignments: [{ roleId: role.body.id, reach: { type: 'everyone' } }] } });
    expect(assign.status).toBe(422);
  });

  test('GET /permissions: the catalogue in the list envelope with paging', async () => {
    const first = await t.call('GET', '/permissions?limit=50', { as: integration(['organization:read']) });
    expect(first.body.data).toHaveLength(50);
    expect(first.body.data[0]).toEqual(expect.objectContaining({ name: expect.any(String), area: expect.any(String), meaning: expect.any(String), reaches: expect.any(Array) }));
    const rest = await t.call('GET', `/permissions?limit=200&cursor=${first.body.nextCursor}`);
    expect([...first.body.data, ...rest.body.data].map((p: { name: string }) => p.name)).toEqual([...permissionNames].sort());
    expect(rest.body.hasMore).toBe(false);
  });
});

describe('features', () => {
  test('every feature is on by default, with its parent', async () => {
    const r = await t.call('GET', '/features?limit=200');
    expect(r.body.data).toHaveLength(features.length);
    expect(r.body.data.find((f: { key: string }) => f.key === 'inventory.waste')).toMatchObject({ parent: 'inventory', enabled: true, effective: true });
  });

  test('a parent switched off keeps its children’s own states and restores them when on again; a child cannot be enabled under a disabled parent', async () => {
    const state = async () => new Map(((await t.call('GET', '/features?limit=200')).body.data as Array<{ key: string; enabled: boolean; effective: boolean }>).map((f) => [f.key, { enabled: f.enabled, effective: f.effective }]));
    expect((await t.call('POST', '/features/inventory.waste:disable')).status).toBe(200);

    const off = await t.call('POST', '/features/inventory:disable');
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ key: 'inventory', enabled: false, effective: false });
    let list = await state();
    expect(list.get('inventory.transfers')).toEqual({ enabled: true, effective: false });
    expect(list.get('inventory.usage_recipes')).toEqual({ enabled: true, effective: false });
    expect(list.get('inventory.waste')).toEqual({ enabled: false, effective: false });
    expect(list.get('sales')!.enabled).toBe(true);

    const child = await t.call('POST', '/features/inventory.waste:enable');
    expect(child.status).toBe(409);
    expect(child.body.code).toBe('conflict');

    expect((await t.call('POST', '/features/inventory:enable')).body).toMatchObject({ enabled: true, effective: true });
    list = await state();
    expect(list.get('inventory.transfers')).toEqual({ enabled: true, effective: true });
    expect(list.get('inventory.usage_recipes')).toEqual({ enabled: true, effective: true });
    expect(list.get('inventory.waste')).toEqual({ enabled: false, effective: false });
    const internal = await t.call('GET', '/internal/features', { as: system });
    expect(internal.body.features.find((f: { key: string }) => f.key === 'inventory.transfers')).toEqual({ key: 'inventory.transfers', enabled: true, effective: true });
    expect((await t.call('POST', '/features/inventory.waste:enable')).body).toMatchObject({ enabled: true, effective: true });

    // every change of a feature's effective state is an event carrying both states
    const disabledEvents = await outboxEvents(t, 'identity', { type: 'identity.feature.disabled' });
    expect(disabledEvents.map((e) => e.aggregate_id).sort()).toEqual(['inventory', 'inventory.transfers', 'inventory.usage_recipes', 'inventory.waste']);
    const enabledEvents = await outboxEvents(t, 'identity', { type: 'identity.feature.enabled' });
    expect(enabledEvents.map((e) => e.aggregate_id).sort()).toEqual(['inventory', 'inventory.transfers', 'inventory.usage_recipes', 'inventory.waste']);
  });

  test('switching sales off and on leaves sales.online_orders and sales.invoices as they were', async () => {
    expect((await t.call('POST', '/features/sales:disable')).status).toBe(200);
    expect((await t.call('POST', '/features/sales:enable')).status).toBe(200);
    const list = (await t.call('GET', '/features?limit=200')).body.data as Array<{ key: string; enabled: boolean; effective: boolean }>;
    for (const k of ['sales', 'sales.online_orders', 'sales.invoices']) expect(list.find((f) => f.key === k)).toMatchObject({ key: k, enabled: true, effective: true });
  });

  test('unknown key → 404 not_found', async () => {
    const r = await t.call('POST', '/features/teleportation:enable');
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('not_found');
  });
});

describe('company settings', () => {
  test('read defaults; patch with If-Match; money as decimal strings', async () => {
    const r = await t.call('GET', '/company-settings', { as: integration(['organization:read']) });
    expect(r.body).toMatchObject({ defaultCurrency: 'USD', weekStart: 'monday', payPeriodFrequency: 'biweekly', requireTwoFactor: false, version: 1 });
    expect(r.body.purchaseOrderApprovalThreshold).toBe('1000.00');

    const stale = await t.call('PATCH', '/company-settings', { body: { name: 'Acme Foods' }, headers: { 'if-match': '"9"' } });
    expect(stale.body.code).toBe('version_mismatch');
    const ok = await t.call('PATCH', '/company-settings', {
      body: { name: 'Acme Foods', defaultCurrency: 'EUR', weekStart: 'sunday', payPeriodFrequency: 'semimonthly', payPeriodAnchorDate: '2026-02-01', purchaseOrderApprovalThreshold: '2500.50' },
      headers: { 'if-match': '"1"' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ name: 'Acme Foods', defaultCurrency: 'EUR', weekStart: 'sunday', payPeriodAnchorDate: '2026-02-01', purchaseOrderApprovalThreshold: '2500.50', version: 2 });
    expect(ok.headers.get('etag')).toBe('"2"');
    expect((await t.call('GET', '/company-settings')).body.purchaseOrderApprovalThreshold).toBe('2500.50');
    const events = await outboxEvents(t, 'identity', { type: 'identity.company_settings.updated' });
    expect(events).toHaveLength(1);
    expect(events[0].payload.data.previous).toMatchObject({ name: 'My company', defaultCurrency: 'USD' });
  });

  test('validation errors with paths; floats are refused', async () => {
    const r = await t.call('PATCH', '/company-settings', { body: { defaultCurrency: 'euro', weekStart: 'someday', purchaseOrderApprovalThreshold: 12.5, payPeriodAnchorDate: '2026-13-01' } });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['defaultCurrency', 'payPeriodAnchorDate', 'purchaseOrderApprovalThreshold', 'weekStart']);
    expect((await t.call('PATCH', '/company-settings', { body: { purchaseOrderApprovalThreshold: '-1' } })).status).toBe(422);
  });
});
