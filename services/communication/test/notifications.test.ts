import { fixedClock } from '@bop/shared';
import { envelope, eventually, outboxPayloads, person, sql, startTestServices, type TestService, type TestServices } from '@bop/test-support';
import { communicationService } from '../src';
import { me, paths, replicaEmployee, replicaLocation } from './fixtures';

/**
 * Notifications from other areas' events (published on the real bus as their relays would), the
 * person's side (`/me/notifications`, `:mark-read`, preferences), quiet hours with a fixed clock.
 */
const clock = fixedClock('2026-12-01T09:00:00Z');
let stack: TestServices;
let t: TestService;
beforeAll(async () => {
  stack = await startTestServices([communicationService], {}, { workers: false, clock });
  t = stack.services.communication;
}, 90_000);
afterAll(async () => {
  await stack?.close();
});

const hoursFrom = (h: number) => new Date(clock.now().getTime() + h * 3_600_000).toISOString();
const deliver = () => t.svc.worker('notification-delivery').runOnce();

/** Publishes an event on the bus (the same envelope again when `again`) and waits until the notifications consumer has handled it. */
async function delivered(topic: string, type: string, object: Record<string, unknown>, o: { previous?: Record<string, unknown>; locationId?: string | null; again?: boolean } = {}) {
  const event = envelope(type, object, { locationId: o.locationId ?? null, data: { object, ...(o.previous ? { previous: o.previous } : {}) } });
  const message = { topic, key: String(object.id ?? object.locationId), eventId: event.id, type, payload: event };
  await stack.bus.publish([message]);
  if (o.again) await stack.bus.publish([message]);
  await eventually(async () => (await sql(t, `select 1 from communication.processed_events where consumer like '%notifications' and event_id = $1`, [event.id])).length === 1, 15_000);
  return event;
}

/** A person's notifications as stored (in-app or not). */
const stored = (employeeId: string) => sql(t, `select kind, title, body, urgent, in_app, subject_type, subject_id, event_id from communication.notifications where employee_id = $1 order by id`, [employeeId]);
const deliveries = (employeeId: string) => sql(t, `select channel, status, due_at, reason from communication.notification_deliveries where employee_id = $1 order by channel`, [employeeId]);

async function shift(o: { locationId: string; employeeId: string | null; start: string; hours?: number; status?: string }): Promise<string> {
  const id = `shf_n${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const end = new Date(new Date(o.start).getTime() + (o.hours ?? 8) * 3_600_000).toISOString();
  await sql(t, `insert into communication.shifts (id, location_id, employee_id, position, start_at, end_at, local_date, status, version, updated_at) values ($1, $2, $3, 'Cook', $4, $5, $6::date, $7, 1, now())`, [
    id, o.locationId, o.employeeId, o.start, end, o.start.slice(0, 10), o.status ?? 'published',
  ]);
  return id;
}

/** People's event carrying contact details (the employee-contacts consumer keeps them). */
async function contact(employeeId: string, email: string | null, phone: string | null = null) {
  const object = { id: employeeId, email, phone, version: 2, updatedAt: new Date().toISOString() };
  const event = envelope('employee.updated', object);
  await stack.bus.publish([{ topic: 'people', key: employeeId, eventId: event.id, type: 'employee.updated', payload: event }]);
  await eventually(async () => (await sql(t, `select 1 from communication.employee_contacts where employee_id = $1`, [employeeId])).length === 1, 15_000);
}

const openShift = (o: { id: string; locationId: string; start: string; position?: string }) => ({
  id: o.id, externalId: null, locationId: o.locationId, position: o.position ?? 'Cook', employeeId: null, start: o.start, end: new Date(new Date(o.start).getTime() + 8 * 3_600_000).toISOString(),
  timezone: 'UTC', localStart: `${o.start.slice(0, 19)}+00:00`, localEnd: `${new Date(new Date(o.start).getTime() + 8 * 3_600_000).toISOString().slice(0, 19)}+00:00`, breakMinutes: 30, paidHours: '7.5', notes: null, status: 'published', flags: [],
  publishedAt: clock.now().toISOString(), version: 2, createdAt: clock.now().toISOString(), updatedAt: clock.now().toISOString(),
});

describe('notifications from events', () => {
  it('schedule published: each employee with shifts in it, once even when the event is delivered twice; urgent with a shift within 24 h', async () => {
    const a = await replicaLocation(t);
    const week = await replicaEmployee(t, { home: a });
    const soon = await replicaEmployee(t, { home: a });
    const other = await replicaEmployee(t, { home: a });
    const ids = [
      await shift({ locationId: a, employeeId: week, start: '2026-12-03T09:00:00Z', status: 'draft' }),
      await shift({ locationId: a, employeeId: week, start: '2026-12-04T09:00:00Z', status: 'draft' }),
      await shift({ locationId: a, employeeId: soon, start: hoursFrom(5), status: 'draft' }),
      await shift({ locationId: a, employeeId: null, start: '2026-12-04T09:00:00Z', status: 'draft' }),
    ];
    const event = await delivered('scheduling', 'schedule.published', { locationId: a, from: '2026-12-01', to: '2026-12-07', published: 4, openShifts: 1, shiftIds: ids, publishedAt: clock.now().toISOString() }, { locationId: a, again: true });
    expect(await stored(week)).toEqual([
      { kind: 'schedule_published', title: 'Your schedule is published', body: 'You have 2 shifts from 2026-12-01 to 2026-12-07; the first starts on 2026-12-03.', urgent: false, in_app: true, subject_type: 'schedule', subject_id: a, event_id: event.id },
    ]);
    expect(await stored(soon)).toEqual([expect.objectContaining({ kind: 'schedule_published', urgent: true })]);
    expect(await stored(other)).toEqual([]);
    // in the app only by default: nothing external
    expect(await deliveries(week)).toEqual([]);
  });

  it('schedule published right after its drafts were announced: the drafts come first on the bus, so their employees are notified', async () => {
    const a = await replicaLocation(t);
    const e = await replicaEmployee(t, { home: a });
    const draft = { ...openShift({ id: `shf_fresh${Date.now().toString(36)}`, locationId: a, start: '2026-12-06T09:00:00Z' }), employeeId: e, status: 'draft', publishedAt: null, version: 1 };
    const changed = envelope('shift.changed', draft, { locationId: a });
    const published = envelope('schedule.published', { locationId: a, from: '2026-12-06', to: '2026-12-06', published: 1, openShifts: 0, shiftIds: [draft.id], publishedAt: clock.now().toISOString() }, { locationId: a });
    await stack.bus.publish([
      { topic: 'scheduling', key: draft.id, eventId: changed.id, type: 'shift.changed', payload: changed },
      { topic: 'scheduling', key: a, eventId: published.id, type: 'schedule.published', payload: published },
    ]);
    await eventually(async () => (await stored(e)).length === 1, 15_000);
    expect(await stored(e)).toEqual([expect.objectContaining({ kind: 'schedule_published', body: 'You have 1 shift from 2026-12-06 to 2026-12-06; the first starts on 2026-12-06.', event_id: published.id })]);
  });

  it('schedule published before its drafts arrive (Kafka: keyed by location, they by shift): the last draft to arrive makes the notifications, once; the replica holds them published', async () => {
    const a = await replicaLocation(t);
    const e = await replicaEmployee(t, { home: a });
    const f = await replicaEmployee(t, { home: a });
    const stamp = Date.now().toString(36);
    const draftOf = (id: string, employeeId: string | null, start: string) => ({ ...openShift({ id, locationId: a, start }), employeeId, status: 'draft', publishedAt: null, version: 1, updatedAt: '2026-12-01T08:00:00.000Z' });
    const drafts = [draftOf(`shf_late1${stamp}`, e, '2026-12-07T09:00:00Z'), draftOf(`shf_late2${stamp}`, e, '2026-12-08T09:00:00Z'), draftOf(`shf_late3${stamp}`, f, '2026-12-08T09:00:00Z'), draftOf(`shf_late4${stamp}`, null, '2026-12-08T09:00:00Z')];
    const published = await delivered('scheduling', 'schedule.published', { locationId: a, from: '2026-12-07', to: '2026-12-08', published: 4, openShifts: 1, shiftIds: drafts.map((d) => d.id), publishedAt: clock.now().toISOString() }, { locationId: a, again: true });
    expect([...(await stored(e)), ...(await stored(f))]).toEqual([]);
    expect(await sql(t, `select waiting_shift_ids from communication.schedule_notices where event_id = $1`, [published.id])).toEqual([{ waiting_shift_ids: drafts.map((d) => d.id) }]);

    const arrive = async (d: (typeof drafts)[number], again = false) => {
      const changed = envelope('shift.changed', d, { locationId: a });
      const message = { topic: 'scheduling', key: d.id, eventId: changed.id, type: 'shift.changed', payload: changed };
      await stack.bus.publish(again ? [message, message] : [message]);
      await eventually(async () => (await sql(t, `select 1 from communication.processed_events where consumer like any (array['%notifications', '%shift-replica']) and event_id = $1`, [changed.id])).length === 2, 15_000);
    };
    for (const d of drafts.slice(0, 3)) await arrive(d);
    // one draft still missing: nobody is told a partial schedule
    expect([...(await stored(e)), ...(await stored(f))]).toEqual([]);
    await arrive(drafts[3], true);
    expect(await stored(e)).toEqual([expect.objectContaining({ kind: 'schedule_published', body: 'You have 2 shifts from 2026-12-07 to 2026-12-08; the first starts on 2026-12-07.', event_id: published.id })]);
    expect(await stored(f)).toEqual([expect.objectContaining({ kind: 'schedule_published', body: 'You have 1 shift from 2026-12-07 to 2026-12-08; the first starts on 2026-12-08.', event_id: published.id })]);
    expect(await sql(t, `select 1 from communication.schedule_notices where event_id = $1`, [published.id])).toEqual([]);
    // the drafts that came after their publication are held published, one version on (both consumers wrote them)
    expect(await sql(t, `select distinct status, version from communication.shifts where id = any($1)`, [drafts.map((d) => d.id)])).toEqual([{ status: 'published', version: 2 }]);

  });

  it('a schedule publication still missing a draft after 10 minutes notifies those whose shifts are known (fixed clock)', async () => {
    const a = await replicaLocation(t);
    const e = await replicaEmployee(t, { home: a });
    const known = await shift({ locationId: a, employeeId: e, start: '2026-12-10T09:00:00Z', status: 'draft' });
    const published = await delivered('scheduling', 'schedule.published', { locationId: a, from: '2026-12-10', to: '2026-12-10', published: 2, openShifts: 0, shiftIds: [known, `shf_lost${Date.now().toString(36)}`], publishedAt: clock.now().toISOString() }, { locationId: a });
    try {
      clock.set(new Date(clock.now().getTime() + 9 * 60_000).toISOString());
      await deliver();
      expect(await stored(e)).toEqual([]);
      clock.set(new Date(clock.now().getTime() + 2 * 60_000).toISOString());
      await deliver();
    } finally {
      clock.set('2026-12-01T09:00:00Z');
    }
    expect(await stored(e)).toEqual([expect.objectContaining({ kind: 'schedule_published', body: 'You have 1 shift from 2026-12-10 to 2026-12-10; the first starts on 2026-12-10.', event_id: published.id })]);
    expect(await sql(t, `select 1 from communication.schedule_notices where event_id = $1`, [published.id])).toEqual([]);
  });

  it('open shift posted: the eligible staff (location, position, active, not working then); urgent within 24 h', async () => {
    const a = await replicaLocation(t);
    const b = await replicaLocation(t);
    const cook = await replicaEmployee(t, { home: a, positions: ['Cook'] });
    const visiting = await replicaEmployee(t, { home: b, locations: [a], positions: ['Cook', 'Prep'] });
    const server = await replicaEmployee(t, { home: a, positions: ['Server'] });
    const elsewhere = await replicaEmployee(t, { home: b, positions: ['Cook'] });
    const gone = await replicaEmployee(t, { home: a, positions: ['Cook'], status: 'terminated' });
    const busy = await replicaEmployee(t, { home: a, positions: ['Cook'] });
    const start = hoursFrom(10);
    await shift({ locationId: b, employeeId: busy, start: hoursFrom(8) });
    await delivered('scheduling', 'open_shift.posted', openShift({ id: 'shf_open1', locationId: a, start }), { locationId: a });
    for (const [who, notified] of [[cook, true], [visiting, true], [server, false], [elsewhere, false], [gone, false], [busy, false]] as const) {
      expect((await stored(who)).map((n) => [n.kind, n.subject_id, n.urgent])).toEqual(notified ? [['shift_offered', 'shf_open1', true]] : []);
    }
    const later = await delivered('scheduling', 'open_shift.posted', openShift({ id: 'shf_open2', locationId: a, start: '2026-12-09T09:00:00Z' }), { locationId: a });
    expect((await stored(cook)).find((n) => n.event_id === later.id)).toMatchObject({ title: 'Open shift: Cook', body: 'A Cook shift is open on 2026-12-09 09:00–17:00. Claim it in the app.', urgent: false });
  });

  it('swaps, time off, corrective actions and work orders notify the people concerned; email by default for decisions and assignments', async () => {
    const a = await replicaLocation(t);
    const from = await replicaEmployee(t, { home: a });
    const to = await replicaEmployee(t, { home: a });
    await contact(to, 'to@example.com');
    const swap = { id: 'swp_n1', shiftId: 'shf_x', locationId: a, fromEmployeeId: from, toEmployeeId: to, note: null, status: 'pending', shiftStart: '2026-12-05T09:00:00Z', requestedBy: { type: 'employee', id: from }, decidedAt: null, decidedBy: null, rejectionReason: null, version: 1, createdAt: clock.now().toISOString(), updatedAt: clock.now().toISOString() };
    await delivered('scheduling', 'shift.swap_requested', swap, { locationId: a });
    await delivered('scheduling', 'shift.swap_approved', { ...swap, status: 'approved' }, { locationId: a });
    expect((await stored(to)).map((n) => n.kind)).toEqual(['swap_requested', 'swap_decided']);
    expect((await stored(from)).map((n) => [n.kind, n.body])).toEqual([['swap_decided', 'Your shift starting 2026-12-05 09:00 UTC now goes to your colleague.']]);

    const timeOff = { id: 'tor_n1', employeeId: to, locationId: a, startDate: '2026-12-20', endDate: '2026-12-22', status: 'rejected', rejectionReason: 'Holiday rush' };
    await delivered('time', 'time_off.rejected', timeOff, { locationId: a });
    const action = { id: 'cra_n1', locationId: a, title: 'Clean the fryer', priority: 'high', assigneeId: to, dueAt: '2026-12-02T12:00:00Z' };
    await delivered('operations', 'corrective_action.created', action, { locationId: a });
    await delivered('operations', 'corrective_action.created', { ...action, id: 'cra_n2', assigneeId: null }, { locationId: a });
    const order = { id: 'wor_n1', locationId: a, title: 'Fix the walk-in door', priority: 'medium', assigneeEmployeeId: null, dueDate: null };
    await delivered('equipment', 'work_order.created', order, { locationId: a });
    await delivered('equipment', 'work_order.updated', { ...order, assigneeEmployeeId: to }, { locationId: a, previous: { assigneeEmployeeId: null } });
    await delivered('equipment', 'work_order.updated', { ...order, assigneeEmployeeId: to, title: 'Fix the door' }, { locationId: a, previous: { title: 'Fix the walk-in door' } });
    expect((await stored(to)).map((n) => [n.kind, n.title, n.subject_id])).toEqual([
      ['swap_requested', 'Shift swap requested', 'swp_n1'],
      ['swap_decided', 'Shift swap approved', 'swp_n1'],
      ['time_off_decided', 'Time off rejected', 'tor_n1'],
      ['corrective_action_assigned', 'Corrective action assigned: Clean the fryer', 'cra_n1'],
      ['work_order_assigned', 'Work order assigned: Fix the walk-in door', 'wor_n1'],
    ]);
    expect((await stored(to))[2].body).toBe('Your time off (2026-12-20 to 2026-12-22) is rejected: Holiday rush');

    // no shift ahead: nothing to hold them for; email for the decided swap, time off, action and work order
    const emails = (await outboxPayloads(t, 'communication', { type: 'communication.email.requested' })).filter((e) => e.data.object.to === 'to@example.com');
    expect(emails.map((e) => e.data.object.subject)).toEqual(['Shift swap approved', 'Time off rejected', 'Corrective action assigned: Clean the fryer', 'Work order assigned: Fix the walk-in door']);
    expect(emails[1]).toMatchObject({ locationId: a, data: { object: { to: 'to@example.com', body: expect.stringContaining('Your time off (2026-12-20 to 2026-12-22) is rejected: Holiday rush') } } });
    // the other has no email address: the email is skipped, with the reason
    expect(await deliveries(from)).toEqual([{ channel: 'email', status: 'skipped', due_at: null, reason: 'no email address on the employee record' }]);
  });

  it('a rejected swap tells both employees; a corrective action reassigned tells the new assignee, an edit that keeps the assignee nobody', async () => {
    const a = await replicaLocation(t);
    const from = await replicaEmployee(t, { home: a });
    const to = await replicaEmployee(t, { home: a });
    const other = await replicaEmployee(t, { home: a });
    const swap = { id: 'swp_r1', shiftId: 'shf_y', locationId: a, fromEmployeeId: from, toEmployeeId: to, note: null, status: 'rejected', shiftStart: '2026-12-05T09:00:00Z', requestedBy: { type: 'employee', id: from }, decidedAt: clock.now().toISOString(), decidedBy: null, rejectionReason: 'Too short-staffed', version: 2, createdAt: clock.now().toISOString(), updatedAt: clock.now().toISOString() };
    const rejected = await delivered('scheduling', 'shift.swap_rejected', swap, { locationId: a, again: true }); // delivered twice: one each
    expect((await stored(from)).map((n) => [n.kind, n.title, n.body, n.event_id])).toEqual([['swap_decided', 'Shift swap rejected', 'Your swap of the shift starting 2026-12-05 09:00 UTC is rejected; you still work it: Too short-staffed', rejected.id]]);
    expect((await stored(to)).map((n) => [n.kind, n.body])).toEqual([['swap_decided', 'The swap of the shift starting 2026-12-05 09:00 UTC is rejected; you do not take it over: Too short-staffed']]);

    const action = { id: 'cra_r1', locationId: a, title: 'Descale the dishwasher', priority: 'urgent', assigneeId: other, dueAt: null };
    await delivered('operations', 'corrective_action.updated', action, { locationId: a, previous: { assigneeId: null } });
    await delivered('operations', 'corrective_action.updated', { ...action, title: 'Descale the dishwasher today' }, { locationId: a, previous: { title: 'Descale the dishwasher' } });
    expect((await stored(other)).map((n) => [n.kind, n.title, n.urgent])).toEqual([['corrective_action_assigned', 'Corrective action assigned: Descale the dishwasher', true]]);
  });

  it('announcement published (its audience) and reminded (those reminded); its author told who is overdue, once', async () => {
    const a = await replicaLocation(t);
    const reader = await replicaEmployee(t, { home: a });
    const late = await replicaEmployee(t, { home: a, firstName: 'Lee' });
    // the author's account is linked to an employee record elsewhere (not in the audience)
    const author = await replicaEmployee(t, { home: await replicaLocation(t) });
    const userId = `usr_author${Date.now().toString(36)}`;
    await sql(t, `update communication.employees set user_id = $2 where id = $1`, [author, userId]);
    const draft = await t.call('POST', '/announcements', { as: person(undefined, { id: userId, userId }), body: { title: 'Allergens', body: 'Read the new procedure.', audience: { locationIds: [a] }, acknowledgementRequired: true, acknowledgeBy: '2026-12-01T11:00:00.000Z' } });
    expect((await t.call('POST', `/announcements/${draft.body.id}:publish`)).status).toBe(200);
    await eventually(async () => (await stored(late)).length === 1, 15_000);
    expect(await stored(reader)).toEqual([expect.objectContaining({ kind: 'announcement_published', title: 'Allergens', body: 'Read the new procedure.\n\nPlease read and acknowledge it.', subject_id: draft.body.id })]);
    await t.call('POST', `/me/announcements/${draft.body.id}:acknowledge`, { as: me(reader) });
    clock.set(hoursFrom(3));
    try {
      await t.svc.worker('announcement-clock').runOnce();
      await eventually(async () => (await stored(late)).length === 2, 15_000);
    } finally {
      clock.set('2026-12-01T09:00:00Z');
    }
    expect((await stored(late))[1]).toMatchObject({ kind: 'announcement_reminder', title: 'Reminder: Allergens', subject_id: draft.body.id });
    expect((await stored(reader)).map((n) => n.kind)).toEqual(['announcement_published']);
    await eventually(async () => (await stored(author)).length === 1, 15_000);
    expect(await stored(author)).toEqual([
      expect.objectContaining({ kind: 'announcement_overdue', title: 'Overdue: Allergens', body: '1 person of 2 had not acknowledged "Allergens" by 2026-12-01 11:00 UTC: Lee Cook. They were reminded.', subject_id: draft.body.id, urgent: false }),
    ]);
    // by email by default, as the reminder: held for the author's next shift (none ahead: sent now, but no address)
    expect(await deliveries(author)).toEqual([{ channel: 'email', status: 'skipped', due_at: null, reason: 'no email address on the employee record' }]);
  });

  it('an event whose object is not as its contract says is parked, not guessed', async () => {
    const event = envelope('time_off.approved', { id: 'tor_bad' });
    await stack.bus.publish([{ topic: 'time', key: 'tor_bad', eventId: event.id, type: 'time_off.approved', payload: event }]);
    const [parked] = await eventually(async () => {
      const rows = await sql(t, `select error from communication.dead_letters where event_id = $1`, [event.id]);
      return rows.length > 0 ? rows : undefined;
    }, 60_000);
    expect(parked.error).toMatch(/not as its contract says/);
  }, 90_000);
});

describe('preferences and quiet hours', () => {
  it('defaults, replace, 422 with field paths', async () => {
    const a = await replicaLocation(t);
    const e = await replicaEmployee(t, { home: a });
    const first = await t.call('GET', '/me/notification-preferences', { as: me(e) });
    expect(first.status).toBe(200);
    expect(first.body.updatedAt).toBeNull();
    expect(first.body.kinds.schedule_published).toEqual({ inApp: true, email: false, sms: false, push: false });
    expect(first.body.kinds.time_off_decided).toEqual({ inApp: true, email: true, sms: false, push: false });
    expect(Object.keys(first.body.kinds)).toHaveLength(10);

    const bad = await t.call('PUT', '/me/notification-preferences', { as: me(e), body: { kinds: { nope: { inApp: true, email: true, sms: true, push: true }, shift_offered: { inApp: true, email: 'yes' } } } });
    expect([bad.status, paths(bad.body)]).toEqual([422, ['kinds.nope', 'kinds.shift_offered.email', 'kinds.shift_offered.push', 'kinds.shift_offered.sms']]);
    const put = await t.call('PUT', '/me/notification-preferences', { as: me(e), body: { kinds: { shift_offered: { inApp: true, email: false, sms: true, push: true } } } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ updatedAt: clock.now().toISOString(), kinds: { shift_offered: { inApp: true, email: false, sms: true, push: true }, time_off_decided: { inApp: true, email: true, sms: false, push: false } } });
    // replaced: a kind left out goes back to its defaults
    const again = await t.call('PUT', '/me/notification-preferences', { as: me(e), body: { kinds: { time_off_decided: { inApp: false, email: false, sms: false, push: false } } } });
    expect(again.body.kinds.shift_offered).toEqual({ inApp: true, email: false, sms: false, push: false });
    expect((await t.call('GET', '/me/notification-preferences', { as: me(e) })).body.kinds.time_off_decided).toEqual({ inApp: false, email: false, sms: false, push: false });
    const notLinked = await t.call('PUT', '/me/notification-preferences', { as: person({}), body: { kinds: {} } });
    expect([notLinked.status, notLinked.body.code]).toEqual([403, 'not_linked_to_employee']);
  });

  it('external channels wait for the person\'s next shift; urgent ones and in-app never wait; SMS and push as notification.requested', async () => {
    const a = await replicaLocation(t);
    const e = await replicaEmployee(t, { home: a, positions: ['Cook'] });
    await contact(e, 'cook@example.com', '+15550100');
    await sql(t, `update communication.employees set user_id = 'usr_cook' where id = $1`, [e]);
    const choose = { inApp: true, email: true, sms: true, push: true };
    expect((await t.call('PUT', '/me/notification-preferences', { as: me(e), body: { kinds: { work_order_assigned: choose, announcement_published: { ...choose, inApp: false } } } })).status).toBe(200);
    const shiftStart = hoursFrom(30);
    await shift({ locationId: a, employeeId: e, start: shiftStart });

    // off shift, not urgent: held until the shift starts (in the app at once)
    const order = { id: 'wor_q1', locationId: a, title: 'Descale the dishwasher', priority: 'low', assigneeEmployeeId: e, dueDate: '2026-12-10' };
    await delivered('equipment', 'work_order.created', order, { locationId: a });
    expect((await deliveries(e)).map((d) => [d.channel, d.status, d.due_at?.toISOString()])).toEqual([['email', 'held', shiftStart], ['push', 'held', shiftStart], ['sms', 'held', shiftStart]]);
    expect((await t.call('GET', '/me/notifications', { as: me(e) })).body.data).toEqual([expect.objectContaining({ kind: 'work_order_assigned', urgent: false, readAt: null })]);
    const requested = async () => (await outboxPayloads(t, 'communication', { type: 'notification.requested' })).filter((x) => x.data.object.employeeId === e);
    await deliver();
    expect(await requested()).toEqual([]);

    // urgent: at once, whatever the hour
    await delivered('equipment', 'work_order.created', { ...order, id: 'wor_q2', priority: 'urgent', title: 'Gas smell at the range' }, { locationId: a });
    const urgent = await requested();
    expect(urgent.map((x) => x.data.object.channel).sort()).toEqual(['push', 'sms']);
    expect(urgent.find((x) => x.data.object.channel === 'sms')).toMatchObject({
      type: 'notification.requested', apiVersion: 'v1', locationId: a,
      data: { object: { id: expect.stringMatching(/^ntd_/), notificationId: expect.stringMatching(/^ntf_/), kind: 'work_order_assigned', employeeId: e, userId: 'usr_cook', contact: { phone: '+15550100', email: 'cook@example.com' }, title: 'Work order assigned: Gas smell at the range', urgent: true } },
    });

    // in-app off for announcements: not listed, but it still goes out (held) on the other channels
    const ann = await t.call('POST', '/announcements', { body: { title: 'Menu change', body: 'New specials.', audience: { locationIds: [a] } } });
    await t.call('POST', `/announcements/${ann.body.id}:publish`);
    await eventually(async () => (await stored(e)).some((n) => n.kind === 'announcement_published'), 15_000);
    expect((await t.call('GET', '/me/notifications', { as: me(e) })).body.data.map((n: { kind: string }) => n.kind)).toEqual(['work_order_assigned', 'work_order_assigned']);

    // the shift starts: the held ones go out
    clock.set(shiftStart);
    try {
      await deliver();
      expect((await deliveries(e)).every((d) => d.status === 'requested')).toBe(true);
      expect((await requested()).map((x) => x.data.object.title).sort()).toEqual(['Menu change', 'Menu change', 'Work order assigned: Descale the dishwasher', 'Work order assigned: Descale the dishwasher', 'Work order assigned: Gas smell at the range', 'Work order assigned: Gas smell at the range']);
      const emails = (await outboxPayloads(t, 'communication', { type: 'communication.email.requested' })).filter((x) => x.data.object.to === 'cook@example.com');
      expect(emails.map((x) => x.data.object.subject)).toEqual(['Work order assigned: Gas smell at the range', 'Work order assigned: Descale the dishwasher', 'Menu change']);
      // on shift now: a new one goes out at once
      await delivered('equipment', 'work_order.created', { ...order, id: 'wor_q3', title: 'Change the filter' }, { locationId: a });
      expect((await deliveries(e)).filter((d) => d.status === 'held')).toEqual([]);
    } finally {
      clock.set('2026-12-01T09:00:00Z');
    }
  });

  it('a held delivery whose shift was removed waits for the next one', async () => {
    const a = await replicaLocation(t);
    const e = await replicaEmployee(t, { home: a });
    await contact(e, 'moved@example.com');
    const first = hoursFrom(20);
    const id = await shift({ locationId: a, employeeId: e, start: first });
    const next = hoursFrom(44);
    await shift({ locationId: a, employeeId: e, start: next });
    await delivered('time', 'time_off.approved', { id: 'tor_q1', employeeId: e, locationId: a, startDate: '2026-12-24', endDate: '2026-12-24', status: 'approved', rejectionReason: null }, { locationId: a });
    expect((await deliveries(e)).map((d) => [d.status, d.due_at.toISOString()])).toEqual([['held', first]]);
    await sql(t, `update communication.shifts set status = 'archived' where id = $1`, [id]);
    clock.set(first);
    try {
      await deliver();
      expect((await deliveries(e)).map((d) => [d.status, d.due_at.toISOString()])).toEqual([['held', next]]);
      clock.set(next);
      await deliver();
      expect((await deliveries(e)).map((d) => d.status)).toEqual(['requested']);
    } finally {
      clock.set('2026-12-01T09:00:00Z');
    }
  });
});

describe('/me/notifications', () => {
  it('newest first in cursor pages, unread filter, mark read (listed or all), only one\'s own', async () => {
    const a = await replicaLocation(t);
    const e = await replicaEmployee(t, { home: a });
    const other = await replicaEmployee(t, { home: a });
    for (const n of [1, 2, 3]) await delivered('operations', 'corrective_action.created', { id: `cra_m${n}`, locationId: a, title: `Task ${n}`, priority: 'low', assigneeId: e, dueAt: null }, { locationId: a });
    await delivered('operations', 'corrective_action.created', { id: 'cra_m9', locationId: a, title: 'Theirs', priority: 'low', assigneeId: other, dueAt: null }, { locationId: a });
    const page1 = await t.call('GET', '/me/notifications?limit=2', { as: me(e) });
    expect(page1.status).toBe(200);
    expect([page1.body.data.map((n: { title: string }) => n.title), page1.body.hasMore]).toEqual([['Corrective action assigned: Task 3', 'Corrective action assigned: Task 2'], true]);
    expect(page1.body.data[0]).toEqual({ id: expect.stringMatching(/^ntf_/), kind: 'corrective_action_assigned', title: 'Corrective action assigned: Task 3', body: 'You are assigned a low-priority corrective action.', subject: { type: 'corrective_action', id: 'cra_m3' }, locationId: a, urgent: false, readAt: null, createdAt: clock.now().toISOString() });
    const page2 = await t.call('GET', `/me/notifications?limit=2&cursor=${page1.body.nextCursor}`, { as: me(e) });
    expect([page2.body.data.map((n: { title: string }) => n.title), page2.body.hasMore]).toEqual([['Corrective action assigned: Task 1'], false]);

    const theirs = (await t.call('GET', '/me/notifications', { as: me(other) })).body.data[0].id;
    const marked = await t.call('POST', '/me/notifications:mark-read', { as: me(e), body: { ids: [page1.body.data[1].id, theirs, 'ntf_nope'] } });
    expect(marked.body).toEqual({ marked: 1, unreadCount: 2 });
    expect((await t.call('GET', '/me/notifications', { as: me(other) })).body.data[0].readAt).toBeNull();
    const unread = await t.call('GET', '/me/notifications?unread=true', { as: me(e) });
    expect(unread.body.data.map((n: { title: string }) => n.title)).toEqual(['Corrective action assigned: Task 3', 'Corrective action assigned: Task 1']);
    expect((await t.call('GET', '/me/notifications?unread=false', { as: me(e) })).body.data).toEqual([expect.objectContaining({ title: 'Corrective action assigned: Task 2', readAt: clock.now().toISOString() })]);

    // again: nothing more marked, the first time kept
    expect((await t.call('POST', '/me/notifications:mark-read', { as: me(e), body: { ids: [page1.body.data[1].id] } })).body).toEqual({ marked: 0, unreadCount: 2 });
    expect((await t.call('POST', '/me/notifications:mark-read', { as: me(e), body: { all: true } })).body).toEqual({ marked: 2, unreadCount: 0 });
    expect((await t.call('GET', '/me/notifications?unread=true', { as: me(e) })).body.data).toEqual([]);
  });

  it('bad input gets field paths; a person not linked to an employee gets 403', async () => {
    const e = await replicaEmployee(t, { home: await replicaLocation(t) });
    for (const body of [{}, { ids: ['ntf_1'], all: true }, { ids: [] }, { all: false }]) {
      const r = await t.call('POST', '/me/notifications:mark-read', { as: me(e), body });
      expect(r.status).toBe(422);
      expect(paths(r.body).length).toBeGreaterThan(0);
    }
    expect(paths((await t.call('GET', '/me/notifications?unread=maybe', { as: me(e) })).body)).toEqual(['unread']);
    for (const [method, path] of [['GET', '/me/notifications'], ['POST', '/me/notifications:mark-read'], ['GET', '/me/notification-preferences']] as const) {
      const r = await t.call(method, path, { as: person({}), body: method === 'POST' ? { all: true } : undefined });
      expect([r.status, r.body.code]).toEqual([403, 'not_linked_to_employee']);
    }
  });
});
