import { endpointKey, endpoints } from '@bop/contracts';
import { outboxEvents, sql, startTestService, system, type TestService } from '@bop/test-support';
import { identityAdmin, identityService } from '../src';
import { authenticate, signIn } from './fixtures';

let t: TestService;
let printed: string[] = [];

beforeAll(async () => {
  const spy = jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    printed.push(args.join(' '));
  });
  try {
    t = await startTestService(identityService, {});
  } finally {
    spy.mockRestore();
  }
});
afterAll(() => t?.close());

test('first start creates the owner with a generated password, printed once', async () => {
  const lines = printed.filter((l) => l.includes('bootstrap owner'));
  expect(lines).toHaveLength(1);
  const password = /password: (\S+)/.exec(lines[0])![1];
  expect(password.length).toBeGreaterThanOrEqual(20);
  const r = await signIn(t, 'admin@example.com', password);
  expect(r.status).toBe(200);
  expect(r.body.user.assignments[0]).toMatchObject({ roleName: 'Owner', reach: { type: 'everyone' } });

  // a later start (same database) creates nobody and prints nothing
  printed = [];
  const spy = jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    printed.push(args.join(' '));
  });
  try {
    await Promise.all([identityService.onStart!(t.svc.runtime), identityService.onStart!(t.svc.runtime)]);
  } finally {
    spy.mockRestore();
  }
  expect(printed).toHaveLength(0);
  expect(await sql(t, 'select count(*)::int as n from identity.users')).toEqual([{ n: 1 }]);
  expect(await sql(t, 'select count(*)::int as n from identity.roles where built_in')).toEqual([{ n: 3 }]);
});

describe('admin API (ops CLI)', () => {
  const runtime = () => t.svc.runtime;

  test('createAdmin makes an owner at Everyone and refuses duplicates and short passwords', async () => {
    const user = await identityAdmin.createAdmin(runtime(), { email: 'Ops@Example.com', password: 'ops-password-123', name: 'Ops' });
    expect(user).toMatchObject({ email: 'ops@example.com', assignments: [{ roleName: 'Owner', reach: { type: 'everyone' } }] });
    await expect(identityAdmin.createAdmin(runtime(), { email: 'ops@example.com', password: 'ops-password-123' })).rejects.toMatchObject({ code: 'conflict' });
    await expect(identityAdmin.createAdmin(runtime(), { email: 'short@example.com', password: 'short' })).rejects.toMatchObject({ code: 'validation_error' });
    expect((await outboxEvents(t, 'identity', { type: 'identity.user.created' })).map((e) => e.aggregate_id)).toContain(user.id);
  });

  test('createPersonalKey returns a working key once; listUsers lists everyone', async () => {
    const { key, id } = await identityAdmin.createPersonalKey(runtime(), { email: 'ops@example.com', name: 'cli' });
    expect(id).toMatch(/^key_/);
    const auth = await authenticate(t, key);
    expect(auth.body.principal).toMatchObject({ via: 'personal_key', keyId: id });
    await expect(identityAdmin.createPersonalKey(runtime(), { email: 'ghost@example.com', name: 'x' })).rejects.toMatchObject({ code: 'not_found' });
    const users = await identityAdmin.listUsers(runtime());
    expect(users.map((u) => u.email).sort()).toEqual(['admin@example.com', 'ops@example.com']);
  });

  test('features through the admin API match the routes', async () => {
    const off = await identityAdmin.setFeature(runtime(), 'scheduling', false);
    expect(off).toMatchObject({ key: 'scheduling', enabled: false });
    const list = await identityAdmin.listFeatures(runtime());
    // a child keeps its own switch while its parent is off; it is off in effect
    expect(list.find((f) => f.key === 'scheduling.shift_swaps')).toMatchObject({ enabled: true, effective: false });
    const internal = await t.call('GET', '/internal/features', { as: system });
    expect(internal.body.features.find((f: { key: string }) => f.key === 'scheduling').enabled).toBe(false);
    await expect(identityAdmin.setFeature(runtime(), 'nope', true)).rejects.toMatchObject({ code: 'not_found' });
    await identityAdmin.setFeature(runtime(), 'scheduling', true);
  });
});

test('serves every identity row of the endpoint catalogue', () => {
  const rows = endpoints.filter((r) => r.service === 'identity').map(endpointKey).sort();
  expect([...t.svc.served].sort()).toEqual(rows);
});
