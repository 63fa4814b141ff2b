import { outboxEvents, sql, startTestService, system, type TestService } from '@bop/test-support';
import { identityAdmin } from '../src';
import { identityService, newUser, OWNER_EMAIL, ownerEnv, principalOf, roleId, session, signIn } from './fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(identityService, { ...ownerEnv, INVITATION_VALID_DAYS: '7' });
});
afterAll(() => t?.close());

async function ownerId(): Promise<string> {
  return (await sql<{ id: string }>(t, 'select id from identity.users where email = $1', [OWNER_EMAIL]))[0].id;
}

describe('users', () => {
  test('list pages with a cursor: every user once, in order, no gaps', async () => {
    for (let i = 0; i < 6; i++) await newUser(t, { password: null });
    const all = await sql<{ id: string }>(t, 'select id from identity.users order by id');
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const path: string = `/users?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const r = await t.call('GET', path);
      expect(r.status).toBe(200);
      seen.push(...r.body.data.map((u: { id: string }) => u.id));
      expect(r.body.hasMore).toBe(r.body.nextCursor !== null);
      cursor = r.body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThan(1);
    expect(seen).toEqual(all.map((u) => u.id));
  });

  test('list filters: status, roleId, email; bad query → 400', async () => {
    const u = await newUser(t, { role: 'manager' });
    const byRole = await t.call('GET', `/users?roleId=${await roleId(t, 'manager')}`);
    expect(byRole.body.data.map((x: { id: string }) => x.id)).toContain(u.id);
    expect(byRole.body.data.every((x: { assignments: Array<{ roleName: string }> }) => x.assignments.some((a) => a.roleName === 'Manager'))).toBe(true);
    expect((await t.call('GET', '/users?roleId=rol_nobody')).body.data).toEqual([]);
    const byEmail = await t.call('GET', `/users?email=${encodeURIComponent(u.email.toUpperCase())}`);
    expect(byEmail.body.data.map((x: { id: string }) => x.id)).toEqual([u.id]);
    const deactivated = await t.call('GET', '/users?status=deactivated');
    expect(deactivated.body.data.every((x: { status: string }) => x.status === 'deactivated')).toBe(true);
    expect((await t.call('GET', '/users?limit=500')).status).toBe(400);
    expect((await t.call('GET', '/users?cursor=garbage')).status).toBe(400);
  });

  test('get one: assignments, two-factor status, linked employee; unknown → 404', async () => {
    const u = await newUser(t, { role: 'employee', reach: { type: 'locations', ids: ['loc_9'] }, employeeId: 'emp_01ABC' });
    const r = await t.call('GET', `/users/${u.id}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('etag')).toBe('"1"');
    expect(r.body).toMatchObject({ id: u.id, employeeId: 'emp_01ABC', twoFactor: { enabled: false, enrolledAt: null }, assignments: [{ roleName: 'Employee', reach: { type: 'locations', ids: ['loc_9'] } }] });
    expect((await t.call('GET', '/users/usr_nope')).status).toBe(404);
  });

  test('PATCH honours If-Match; a mismatch is 409 version_mismatch and records nothing', async () => {
    const u = await newUser(t);
    const before = (await outboxEvents(t, 'identity')).length;
    const stale = await t.call('PATCH', `/users/${u.id}`, { body: { name: 'Ana' }, headers: { 'if-match': '"7"' } });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_mismatch');
    expect((await outboxEvents(t, 'identity')).length).toBe(before);
    const ok = await t.call('PATCH', `/users/${u.id}`, { body: { name: 'Ana', locale: 'de-AT', employeeId: 'emp_02' }, headers: { 'if-match': '"1"' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ name: 'Ana', locale: 'de-AT', employeeId: 'emp_02', version: 2 });
    const events = await outboxEvents(t, 'identity', { type: 'identity.user.updated' });
    const last = events[events.length - 1];
    expect(last.aggregate_id).toBe(u.id);
    expect(last.payload.data.previous).toEqual({ name: null, locale: 'en', employeeId: null });
  });

  test('PATCH validation errors carry paths; unknown fields are refused', async () => {
    const u = await newUser(t);
    const r = await t.call('PATCH', `/users/${u.id}`, { body: { locale: 'English!!', employeeId: 'bob', email: 'x@y.z' } });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['email', 'employeeId', 'locale']);
  });

  test('an employee links to one user only → 409', async () => {
    await newUser(t, { employeeId: 'emp_taken' });
    const u = await newUser(t);
    const r = await t.call('PATCH', `/users/${u.id}`, { body: { employeeId: 'emp_taken' } });
    expect(r.status).toBe(409);
  });

  test('the last active owner cannot be deactivated or lose the owner role; with a second owner it can', async () => {
    const owner = await ownerId();
    const before = (await outboxEvents(t, 'identity')).length;
    const r = await t.call('DELETE', `/users/${owner}`);
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('conflict');
    const demote = await t.call('PUT', `/users/${owner}/assignments`, { body: { assignments: [{ roleId: await roleId(t, 'manager'), reach: { type: 'everyone' } }] } });
    expect(demote.status).toBe(409);
    const scoped = await t.call('PUT', `/users/${owner}/assignments`, { body: { assignments: [{ roleId: await roleId(t, 'owner'), reach: { type: 'locations', ids: ['loc_1'] } }] } });
    expect(scoped.status).toBe(409);
    expect((await outboxEvents(t, 'identity')).length).toBe(before);
    expect((await signIn(t, OWNER_EMAIL, ownerEnv.BOOTSTRAP_ADMIN_PASSWORD)).status).toBe(200);

    const second = await newUser(t, { role: 'owner' });
    expect((await t.call('DELETE', `/users/${second.id}`)).status).toBe(200);
    expect((await t.call('DELETE', `/users/${owner}`)).status).toBe(409);
    expect((await t.call('PATCH', `/users/${second.id}`, { body: { status: 'active' } })).status).toBe(200);
    expect((await t.call('DELETE', `/users/${owner}`)).status).toBe(200);
    expect((await t.call('PATCH', `/users/${owner}`, { body: { status: 'active' } })).body.status).toBe('active');
    expect((await outboxEvents(t, 'identity', { type: 'identity.user.reactivated' })).length).toBe(2);
  });

  test('assignments: replaced as a whole and reflected in the principal (union of reaches)', async () => {
    const u = await newUser(t, { role: 'employee', reach: { type: 'everyone' } });
    const { token } = await session(t, u.email);
    const body = {
      assignments: [
        { roleId: await roleId(t, 'manager'), reach: { type: 'locations', ids: ['loc_2', 'loc_1'] } },
        { roleId: await roleId(t, 'manager'), reach: { type: 'org_units', ids: ['ou_north'] } },
        { roleId: await roleId(t, 'employee'), reach: { type: 'locations', ids: ['loc_3'] } },
      ],
    };
    const r = await t.call('PUT', `/users/${u.id}/assignments`, { body });
    expect(r.status).toBe(200);
    expect(r.body.assignments).toHaveLength(3);
    const p = await principalOf(t, token);
    expect(p.permissions!['sales.read']).toEqual([
      { type: 'org_units', ids: ['ou_north'] },
      { type: 'locations', ids: ['loc_1', 'loc_2'] },
    ]);
    expect(p.permissions!['checklists.complete']).toEqual([
      { type: 'org_units', ids: ['ou_north'] },
      { type: 'locations', ids: ['loc_1', 'loc_2', 'loc_3'] },
    ]);
    expect(p.permissions!['users.manage']).toBeUndefined();
    const events = await outboxEvents(t, 'identity', { type: 'identity.user.assignments_replaced' });
    expect(events[events.length - 1].payload.data.previous.assignments).toHaveLength(1);
  });

  test('assignments validation: unknown role → 422 at its path; bad reach → 422', async () => {
    const u = await newUser(t);
    const unknown = await t.call('PUT', `/users/${u.id}/assignments`, { body: { assignments: [{ roleId: await roleId(t, 'employee'), reach: { type: 'everyone' } }, { roleId: 'rol_nope', reach: { type: 'everyone' } }] } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([{ path: 'assignments[1].roleId', message: 'No such role.' }]);
    const empty = await t.call('PUT', `/users/${u.id}/assignments`, { body: { assignments: [{ roleId: 'x', reach: { type: 'locations', ids: [] } }] } });
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0].path).toBe('assignments[0].reach.ids');
  });
});

describe('invitations', () => {
  test('invite → pending, email written with a token (stored hashed); duplicate and existing-user conflicts; revoke', async () => {
    const managerRole = await roleId(t, 'manager');
    const r = await t.call('POST', '/invitations', { body: { email: 'New.Person@Example.com', name: 'New Person', assignments: [{ roleId: managerRole, reach: { type: 'locations', ids: ['loc_1'] } }], employeeId: 'emp_new' } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ email: 'new.person@example.com', status: 'pending', employeeId: 'emp_new' });
    expect(Date.parse(r.body.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);

    const mail = await t.call('GET', '/internal/email-log?to=new.person@example.com', { as: system });
    expect(mail.body.data).toHaveLength(1);
    const token = /token: (\S+)/.exec(mail.body.data[0].body)![1];
    const stored = await sql(t, 'select token_hash from identity.invitations where id = $1', [r.body.id]);
    expect(JSON.stringify(stored)).not.toContain(token);

    expect((await t.call('POST', '/invitations', { body: { email: 'new.person@example.com', assignments: [] } })).status).toBe(409);
    expect((await t.call('POST', '/invitations', { body: { email: OWNER_EMAIL, assignments: [] } })).status).toBe(409);

    const listed = await t.call('GET', '/invitations?status=pending');
    expect(listed.body.data.map((i: { id: string }) => i.id)).toContain(r.body.id);
    const revoked = await t.call('DELETE', `/invitations/${r.body.id}`);
    expect(revoked.body.status).toBe('revoked');
    expect((await t.call('GET', '/invitations?status=revoked')).body.data.map((i: { id: string }) => i.id)).toContain(r.body.id);
  });

  test('an invitation past its validity reads as expired and cannot be revoked', async () => {
    const r = await t.call('POST', '/invitations', { body: { email: 'late@example.com', assignments: [] } });
    await sql(t, `update identity.invitations set expires_at = now() - interval '1 minute' where id = $1`, [r.body.id]);
    const expired = await t.call('GET', '/invitations?status=expired');
    expect(expired.body.data.find((i: { id: string }) => i.id === r.body.id)?.status).toBe('expired');
    expect((await t.call('GET', '/invitations?status=pending')).body.data.map((i: { id: string }) => i.id)).not.toContain(r.body.id);
    expect((await t.call('DELETE', `/invitations/${r.body.id}`)).status).toBe(409);
  });

  test('validation: unknown role in assignments; bad email', async () => {
    const r = await t.call('POST', '/invitations', { body: { email: 'x@example.com', assignments: [{ roleId: 'rol_nope', reach: { type: 'everyone' } }] } });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].path).toBe('assignments[0].roleId');
    const bad = await t.call('POST', '/invitations', { body: { email: 'nope', assignments: [] } });
    expect(bad.body.errors[0].path).toBe('email');
  });

  test('accepting (admin API) creates the active user with the invited assignments', async () => {
    const r = await t.call('POST', '/invitations', { body: { email: 'joiner@example.com', assignments: [{ roleId: await roleId(t, 'employee'), reach: { type: 'locations', ids: ['loc_7'] } }] } });
    const mail = await t.call('GET', '/internal/email-log?to=joiner@example.com', { as: system });
    const token = /token: (\S+)/.exec(mail.body.data[0].body)![1];
    const runtime = t.svc.runtime;
    await expect(identityAdmin.acceptInvitation(runtime, { token, password: 'short' })).rejects.toMatchObject({ code: 'validation_error' });
    const user = await identityAdmin.acceptInvitation(runtime, { token, password: 'joiner-password-1' });
    expect(user.assignments[0].reach).toEqual({ type: 'locations', ids: ['loc_7'] });
    expect((await t.call('GET', `/invitations?status=accepted`)).body.data.map((i: { id: string }) => i.id)).toContain(r.body.id);
    expect((await signIn(t, 'joiner@example.com', 'joiner-password-1')).status).toBe(200);
    await expect(identityAdmin.acceptInvitation(runtime, { token, password: 'joiner-password-1' })).rejects.toMatchObject({ code: 'conflict' });
  });
});
