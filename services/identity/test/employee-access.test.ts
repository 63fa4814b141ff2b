import { eventually, outboxPayloads, publishEvent, sql, startTestServices, type TestService, type TestServices } from '@bop/test-support';
import { identityAdmin } from '../src';
import { authenticate, identityService, newUser, OWNER_EMAIL, ownerEnv, session, signIn } from './fixtures';

let stack: TestServices;
let t: TestService;
beforeAll(async () => {
  // one attempt: an event the consumer cannot take is parked at its first failure
  stack = await startTestServices([identityService], { ...ownerEnv, CONSUMER_MAX_ATTEMPTS: '1' });
  t = stack.services.identity;
});
afterAll(() => stack?.close());

let seq = 0;
/** An employee as people's events carry it (only `id` and `status` decide here). */
const employee = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  firstName: 'Robin',
  lastName: `Doe ${++seq}`,
  status: 'active',
  terminationDate: null,
  terminationReason: null,
  homeLocationId: 'loc_1',
  version: 1,
  updatedAt: new Date().toISOString(),
  ...over,
});

/** Waits until identity's consumer has taken this event (recorded as processed in the handler's transaction). */
const processed = (eventId: string) =>
  eventually(async () => (await sql(stack, `select 1 from identity.processed_events where consumer = 'identity.employee-access' and event_id = $1`, [eventId])).length === 1);

const statusOf = async (userId: string) => (await t.call('GET', `/users/${userId}`)).body.status as string;
const deactivations = (userId: string) => outboxPayloads(stack, 'identity', { type: 'identity.user.deactivated', aggregateId: userId });

/** A user linked to the employee through PATCH /users/{id}, signed in, with a personal key. */
async function linkedUser(employeeId: string, role: 'owner' | 'manager' | 'employee' = 'employee') {
  const u = await newUser(t, { role });
  const linked = await t.call('PATCH', `/users/${u.id}`, { body: { employeeId } });
  expect(linked.body.employeeId).toBe(employeeId);
  const { token } = await session(t, u.email);
  // POST /auth/api-keys needs api_keys.personal, which the employee role lacks (the kit refuses, as the gateway does): the ops CLI's way
  const key = await identityAdmin.createPersonalKey(t.svc.runtime, { email: u.email, name: 'script' });
  return { ...u, token, key };
}

describe('people: a terminated or archived employee ends the linked user', () => {
  test('employee.terminated: deactivated as DELETE /users/{id} does, by the system; sign-in, session and key refused', async () => {
    const u = await linkedUser('emp_x');
    expect((await authenticate(t, u.token)).status).toBe(200);
    const event = await publishEvent(stack, 'people', 'employee.terminated', employee('emp_x', { status: 'terminated', terminationDate: '2026-11-20', terminationReason: 'resigned' }), {
      actor: { type: 'user', id: 'usr_manager' },
    });
    await eventually(async () => (await statusOf(u.id)) === 'deactivated');

    expect((await authenticate(t, u.token)).status).toBe(401);
    expect((await authenticate(t, u.key.key)).status).toBe(401);
    expect((await signIn(t, u.email)).status).toBe(401);
    const [sessionRow] = await sql(stack, 'select ended_at, end_reason from identity.sessions where user_id = $1', [u.id]);
    expect(sessionRow).toMatchObject({ end_reason: 'user_deactivated', ended_at: expect.any(Date) });
    const [keyRow] = await sql(stack, 'select revoked_at from identity.api_keys where id = $1', [u.key.id]);
    expect(keyRow.revoked_at).toBeInstanceOf(Date);

    // the same events as DELETE /users/{id}, recorded by the system
    const [deactivated] = await deactivations(u.id);
    expect(deactivated).toMatchObject({ type: 'identity.user.deactivated', actor: { type: 'system', id: null }, data: { object: { id: u.id, status: 'deactivated', employeeId: 'emp_x' }, previous: { status: 'active' } } });
    const revoked = await outboxPayloads(stack, 'identity', { type: 'identity.api_key.revoked', aggregateId: u.key.id });
    expect(revoked).toEqual([expect.objectContaining({ actor: { type: 'system', id: null } })]);

    // the same event again (at least once delivery) and a later update of the ended employee change nothing
    await stack.bus.publish([{ topic: 'people', key: 'emp_x', eventId: event.id, type: event.type, payload: event }]);
    const later = await publishEvent(stack, 'people', 'employee.updated', employee('emp_x', { status: 'terminated', terminationDate: '2026-11-20', version: 2 }));
    await processed(later.id);
    expect(await deactivations(u.id)).toHaveLength(1);
    expect(await statusOf(u.id)).toBe('deactivated');
  });

  test('employee.updated and employee.archived with status terminated or archived end access too', async () => {
    const updated = await linkedUser('emp_upd');
    const archived = await linkedUser('emp_arc', 'manager');
    await publishEvent(stack, 'people', 'employee.updated', employee('emp_upd', { status: 'terminated', terminationDate: '2026-11-25' }));
    await publishEvent(stack, 'people', 'employee.archived', employee('emp_arc', { status: 'archived', terminationDate: '2026-01-31' }));
    await eventually(async () => (await statusOf(updated.id)) === 'deactivated' && (await statusOf(archived.id)) === 'deactivated');
    expect(await deactivations(updated.id)).toHaveLength(1);
    expect(await deactivations(archived.id)).toHaveLength(1);
  });

  test('status active (a termination scheduled for a later day) or another employee changes nothing', async () => {
    const u = await linkedUser('emp_later');
    const scheduled = await publishEvent(stack, 'people', 'employee.terminated', employee('emp_later', { status: 'active', terminationDate: '2027-01-31' }));
    const updated = await publishEvent(stack, 'people', 'employee.updated', employee('emp_later', { status: 'active', terminationDate: '2027-01-31', version: 2 }));
    const other = await publishEvent(stack, 'people', 'employee.terminated', employee('emp_nobody', { status: 'terminated', terminationDate: '2026-11-20' }));
    await processed(scheduled.id);
    await processed(updated.id);
    await processed(other.id);
    expect(await statusOf(u.id)).toBe('active');
    expect((await authenticate(t, u.token)).status).toBe(200);
    expect((await authenticate(t, u.key.key)).status).toBe(200);
    expect(await deactivations(u.id)).toHaveLength(0);
  });

  test('a user reactivated by hand stays active on a replay of the event that ended it', async () => {
    const u = await linkedUser('emp_back');
    const event = await publishEvent(stack, 'people', 'employee.terminated', employee('emp_back', { status: 'terminated', terminationDate: '2026-11-20' }));
    await eventually(async () => (await statusOf(u.id)) === 'deactivated');
    expect((await t.call('PATCH', `/users/${u.id}`, { body: { status: 'active' } })).body.status).toBe('active');
    await stack.bus.publish([{ topic: 'people', key: 'emp_back', eventId: event.id, type: event.type, payload: event }]);
    const after = await publishEvent(stack, 'people', 'employee.updated', employee('emp_other', { status: 'active' }));
    await processed(after.id);
    expect(await statusOf(u.id)).toBe('active');
    expect(await deactivations(u.id)).toHaveLength(1);
  });

  test('the last active owner is left active (warned, not parked); with another owner it is deactivated', async () => {
    const [owner] = await sql<{ id: string }>(stack, 'select id from identity.users where email = $1', [OWNER_EMAIL]);
    expect((await t.call('PATCH', `/users/${owner.id}`, { body: { employeeId: 'emp_owner' } })).status).toBe(200);
    const event = await publishEvent(stack, 'people', 'employee.terminated', employee('emp_owner', { status: 'terminated', terminationDate: '2026-11-20' }));
    await processed(event.id);
    expect(await statusOf(owner.id)).toBe('active');
    expect(await deactivations(owner.id)).toHaveLength(0);
    expect(await sql(stack, 'select event_id from identity.dead_letters')).toEqual([]);
    expect((await signIn(t, OWNER_EMAIL, ownerEnv.BOOTSTRAP_ADMIN_PASSWORD)).status).toBe(200);

    const second = await newUser(t, { role: 'owner' });
    await publishEvent(stack, 'people', 'employee.archived', employee('emp_owner', { status: 'archived', terminationDate: '2026-11-20' }));
    await eventually(async () => (await statusOf(owner.id)) === 'deactivated');
    expect(await statusOf(second.id)).toBe('active');
  });

  test('an event without an employee id or status is parked in dead_letters; the next is applied', async () => {
    const u = await linkedUser('emp_poisoned');
    const poisons = [
      await publishEvent(stack, 'people', 'employee.terminated', { id: 'emp_poisoned' }),
      await publishEvent(stack, 'people', 'employee.archived', { status: 'archived' }),
    ];
    const good = await publishEvent(stack, 'people', 'employee.terminated', employee('emp_poisoned', { status: 'terminated', terminationDate: '2026-11-20' }));
    await processed(good.id);
    expect(await statusOf(u.id)).toBe('deactivated');
    const parked = await sql(stack, `select event_id, error from identity.dead_letters where consumer = 'identity.employee-access' order by id`);
    expect(parked.map((r) => r.event_id)).toEqual(poisons.map((p) => p.id));
    expect(parked[0].error).toContain('lacks id or status');
  });
});
