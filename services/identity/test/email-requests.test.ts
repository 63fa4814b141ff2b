import { envelope, eventually, sql, startTestServices, type TestService, type TestServices } from '@bop/test-support';
import { identityService, ownerEnv } from './fixtures';

/** Email other services ask for (communication's notifications, insights' reports): recorded pending for the email worker, once per event. */
let stack: TestServices;
let t: TestService;
beforeAll(async () => {
  // one attempt: an event the consumer cannot take is parked at its first failure
  stack = await startTestServices([identityService], { ...ownerEnv, CONSUMER_MAX_ATTEMPTS: '1' }, { workers: false });
  t = stack.services.identity;
});
afterAll(() => stack?.close());

async function requested(topic: string, type: string, object: Record<string, unknown>, times = 1) {
  const event = envelope(type, object);
  for (let i = 0; i < times; i++) await stack.bus.publish([{ topic, key: 'ntf_1', eventId: event.id, type, payload: event }]);
  return event;
}
const handled = (eventId: string) =>
  eventually(async () => {
    const done = await sql(t, `select 1 from identity.processed_events where event_id = $1 union all select 1 from identity.dead_letters where event_id = $1`, [eventId]);
    return done.length > 0;
  }, 15_000);

describe('email-requests', () => {
  it('records the email of communication.email.requested and insights.email.requested pending, once even when delivered twice', async () => {
    const a = await requested('communication', 'communication.email.requested', { to: 'cook@example.com', subject: 'Time off approved', body: 'Your time off is approved.' }, 2);
    const b = await requested('insights', 'insights.email.requested', { to: 'owner@example.com', subject: 'Weekly report', body: 'Sales are up.' });
    // a later request on the same topic is the barrier: once it is handled, the duplicate was seen before it
    const barrier = await requested('communication', 'communication.email.requested', { to: 'later@example.com', subject: 'Later', body: 'Later.' });
    await handled(a.id);
    await handled(b.id);
    await handled(barrier.id);
    const rows = await sql(t, `select to_address, subject, body, status from identity.email_log where to_address in ('cook@example.com', 'owner@example.com') order by to_address`);
    expect(rows).toEqual([
      { to_address: 'cook@example.com', subject: 'Time off approved', body: 'Your time off is approved.', status: 'pending' },
      { to_address: 'owner@example.com', subject: 'Weekly report', body: 'Sales are up.', status: 'pending' },
    ]);
  });

  it('parks a request that is not { to, subject, body }', async () => {
    const bad = await requested('communication', 'communication.email.requested', { to: 'x@example.com' });
    await handled(bad.id);
    const [parked] = await sql(t, `select error from identity.dead_letters where event_id = $1`, [bad.id]);
    expect(parked.error).toMatch(/not \{ to, subject, body \}/);
    expect(await sql(t, `select 1 from identity.email_log where to_address = 'x@example.com'`)).toEqual([]);
  });
});
