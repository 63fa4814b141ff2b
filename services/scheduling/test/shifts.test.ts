import { fixedClock, useClock } from '@bop/shared';
import { eventually, integration, outboxPayloads, person, publishEvent, sql, startTestServices, type TestService, type TestServices } from '@bop/test-support';
import { schedulingService } from '../src';
import { codes, me, replicaEmployee, replicaLocation } from './fixtures';

let stack: TestServices;
let t: TestService;
beforeAll(async () => {
  stack = await startTestServices([schedulingService]);
  t = stack.services.scheduling;
}, 60_000);
afterAll(async () => {
  useClock({ now: () => new Date() });
  await stack?.close();
});
afterEach(() => useClock({ now: () => new Date() }));

const NY = 'America/New_York';
const newShift = (locationId: string, employeeId: string | null, start: string, end: string, extra: Record<string, unknown> = {}) =>
  t.call('POST', '/shifts', { body: { locationId, position: 'Cook', employeeId, start, end, ...extra } });
const publish = (locationId: string, from: string, to: string) => t.call('POST', '/schedules:publish', { body: { locationId, from, to } });

describe('shifts', () => {
  it('creates a draft shift shown in the location zone, with warnings in words, and emits shift.changed', async () => {
    const loc = await replicaLocation(t, { timezone: NY });
    const emp = await replicaEmployee(t, { home: loc, positions: ['Server'] });
    const r = await newShift(loc, emp, '2026-12-21T14:00:00Z', '2026-12-21T22:00:00Z', { breakMinutes: 30, notes: 'Prep' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ locationId: loc, employeeId: emp, status: 'draft', timezone: NY, localStart: '2026-12-21T09:00:00-05:00', localEnd: '2026-12-21T17:00:00-05:00', paidHours: '7.5', version: 1 });
    expect(r.body.warnings).toEqual([{ code: 'position_not_held', message: 'Pat Tester does not hold the position Cook (holds Server).' }]);
    const events = await outboxPayloads(t, 'scheduling', { type: 'shift.changed', aggregateId: r.body.id });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'shift.changed', locationId: loc, data: { object: { id: r.body.id, status: 'draft' } } });
    // GET answers the shift without warnings
    const got = await t.call('GET', `/shifts/${r.body.id}`);
    expect(got.body).toMatchObject({ id: r.body.id, notes: 'Prep' });
    expect(got.body.warnings).toBeUndefined();
  });

  it('refuses bad input with field paths, unknown references and an archived location', async () => {
    const loc = await replicaLocation(t);
    const archived = await replicaLocation(t, { status: 'archived' });
    const bad = await t.call('POST', '/shifts', { body: { locationId: loc, position: 'Cook', start: '2026-12-21T14:00:00+01:00', end: '2026-12-21T10:00:00Z', breakMinutes: -5 } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['breakMinutes', 'end', 'start']);
    const backwards = await newShift(loc, null, '2026-12-21T14:00:00Z', '2026-12-21T10:00:00Z');
    expect(backwards.status).toBe(422);
    expect(backwards.body.errors).toEqual([{ path: 'end', message: 'The shift must end after it starts.' }]);
    const nul = await t.call('POST', '/shifts', { body: { locationId: loc, position: 'Co\u0000ok', start: '2026-12-21T10:00:00Z', end: '2026-12-21T14:00:00Z' } });
    expect(nul.status).toBe(422);
    expect((await newShift('loc_nope', null, '2026-12-21T10:00:00Z', '2026-12-21T14:00:00Z')).body.errors).toEqual([{ path: 'locationId', message: 'No location loc_nope.' }]);
    expect((await newShift(archived, null, '2026-12-21T10:00:00Z', '2026-12-21T14:00:00Z')).body.errors[0].message).toMatch(/archived; it takes no new shifts/);
    const ghost = await newShift(loc, 'emp_nope', '2026-12-21T10:00:00Z', '2026-12-21T14:00:00Z');
    expect([ghost.status, ghost.body.errors]).toEqual([422, [{ path: 'employeeId', message: 'No employee emp_nope.' }]]);
    expect(Number((await sql(t, `select count(*) from scheduling.shifts where location_id = $1`, [loc]))[0].count)).toBe(0);
  });

  it('checks reach (scopes and permissions are checked by the gateway from the catalogue: test/access.test.ts)', async () => {
    const loc = await replicaLocation(t);
    const other = await replicaLocation(t);
    const body = { locationId: loc, position: 'Cook', start: '2026-12-21T10:00:00Z', end: '2026-12-21T14:00:00Z' };
    expect((await t.call('POST', '/shifts', { as: integration(['scheduling:write']), body })).status).toBe(201);
    const manager = person({ 'schedules.manage': [{ type: 'locations', ids: [other] }], 'schedules.read': [{ type: 'locations', ids: [other] }] });
    const out = await t.call('POST', '/shifts', { as: manager, body });
    expect([out.status, out.body.code]).toEqual([403, 'out_of_reach']);
    const list = await t.call('GET', '/shifts', { as: manager });
    expect(list.body.data.every((s: { locationId: string }) => s.locationId === other)).toBe(true);
  });

  it('an employee set reaches its employees\' shifts and availability at any location, and gives open shifts only to them', async () => {
    const loc = await replicaLocation(t);
    const away = await replicaLocation(t);
    const mine = await replicaEmployee(t, { home: loc, positions: ['Cook'] });
    const other = await replicaEmployee(t, { home: loc, positions: ['Cook'] });
    const set = [{ type: 'employee_set' as const, ids: [mine] }];
    const lead = person({ 'schedules.manage': set, 'schedules.read': set });
    const body = (employeeId: string | null, locationId = loc) => ({ locationId, position: 'Cook', employeeId, start: '2026-12-28T10:00:00Z', end: '2026-12-28T14:00:00Z' });

    const made = await t.call('POST', '/shifts', { as: lead, body: body(mine, away) });
    expect(made.status).toBe(201);
    expect((await t.call('GET', `/shifts/${made.body.id}`, { as: lead })).status).toBe(200);
    expect((await t.call('PATCH', `/shifts/${made.body.id}`, { as: lead, body: { notes: 'Prep' } })).status).toBe(200);
    // the shift given to someone out of reach, a shift of theirs, an open shift: refused
    expect((await t.call('PATCH', `/shifts/${made.body.id}`, { as: lead, body: { employeeId: other } })).body.code).toBe('out_of_reach');
    const theirs = await newShift(loc, other, '2026-12-28T10:00:00Z', '2026-12-28T14:00:00Z');
    expect((await t.call('GET', `/shifts/${theirs.body.id}`, { as: lead })).body).toMatchObject({ code: 'out_of_reach', detail: `Your permission reaches neither location ${loc} nor employee ${other}.` });
    expect((await t.call('POST', '/shifts', { as: lead, body: body(other) })).body.code).toBe('out_of_reach');
    const open = await t.call('POST', '/shifts', { as: lead, body: body(null) });
    expect(open.body.code).toBe('out_of_reach');
    expect(open.body.detail).toMatch(/An employee set reaches the records of its employees, not a location as a whole/);

    const listed = await t.call('GET', '/shifts?limit=200', { as: lead });
    expect(listed.body.data.map((x: { id: string }) => x.id)).toEqual([made.body.id]);
    expect((await t.call('GET', `/shifts?locationId=${loc}&limit=200`, { as: lead })).body.data).toEqual([]);

    // an open shift, published: the lead gives it to their employee, not to another
    const posted = await newShift(loc, null, '2026-12-29T10:00:00Z', '2026-12-29T14:00:00Z');
    await publish(loc, '2026-12-29', '2026-12-29');
    expect((await t.call('POST', `/shifts/${posted.body.id}:claim`, { as: lead, body: { employeeId: other } })).body.code).toBe('out_of_reach');
    expect((await t.call('POST', `/shifts/${posted.body.id}:claim`, { as: lead, body: { employeeId: mine } })).body.employeeId).toBe(mine);

    // availability: the set's employees only
    const window = await t.call('POST', '/availability', { as: lead, body: { employeeId: mine, kind: 'preferred', weekday: 'friday', startTime: '17:00', endTime: '22:00' } });
    expect(window.status).toBe(201);
    expect((await t.call('POST', '/availability', { as: lead, body: { employeeId: other, kind: 'preferred', weekday: 'friday', startTime: '17:00', endTime: '22:00' } })).body.code).toBe('out_of_reach');
    await t.call('POST', '/availability', { body: { employeeId: other, kind: 'preferred', weekday: 'monday', startTime: '17:00', endTime: '22:00' } });
    expect((await t.call('GET', '/availability?limit=200', { as: lead })).body.data.map((w: { employeeId: string }) => w.employeeId)).toEqual([mine]);
    expect((await t.call('GET', `/availability?locationId=${loc}&limit=200`, { as: lead })).body.data.map((w: { employeeId: string }) => w.employeeId)).toEqual([mine]);
  });

  it('warns of overlap, short rest, availability, time off and overtime on change; PATCH and If-Match', async () => {
    const loc = await replicaLocation(t, { timezone: NY });
    const emp = await replicaEmployee(t, { home: loc });
    await t.call('POST', '/availability', { body: { employeeId: emp, kind: 'available', weekday: 'tuesday', startTime: '06:00', endTime: '15:00' } });
    await publishEvent(stack, 'time', 'time_off.approved', { id: 'tor_s1', employeeId: emp, startDate: '2026-12-24', endDate: '2026-12-24', partialHours: null, status: 'approved', version: 2 });
    const close = await newShift(loc, emp, '2026-12-22T00:00:00Z', '2026-12-22T05:00:00Z');
    // a close Mon 21st 19:00–24:00 New York (no window on Mondays), then an opening 06:00–14:00 on Tuesday: 6 hours' rest
    const open = await newShift(loc, emp, '2026-12-22T11:00:00Z', '2026-12-22T19:00:00Z');
    expect(codes(close)).toEqual(['outside_availability']);
    expect(codes(open)).toEqual(['short_rest']);
    const moved = await t.call('PATCH', `/shifts/${open.body.id}`, { body: { start: '2026-12-22T04:00:00Z' }, headers: { 'if-match': '"1"' } });
    expect(moved.status).toBe(200);
    expect(codes(moved)).toEqual(['outside_availability', 'overlapping_shift']);
    expect(moved.body.warnings.find((w: { code: string }) => w.code === 'overlapping_shift').message).toBe('Pat Tester already works Mon 21 Dec 19:00–00:00.');
    expect((await t.call('PATCH', `/shifts/${open.body.id}`, { body: { breakMinutes: 15 }, headers: { 'if-match': '"1"' } })).status).toBe(409);
    const changed = await outboxPayloads(t, 'scheduling', { type: 'shift.changed', aggregateId: open.body.id });
    expect(changed.at(-1).data.previous).toEqual({ start: '2026-12-22T11:00:00.000Z' });
    await eventually(async () => (await sql(t, `select 1 from scheduling.approved_time_off where id = 'tor_s1'`)).length > 0 || undefined);
    const dayOff = await newShift(loc, emp, '2026-12-24T14:00:00Z', '2026-12-24T18:00:00Z');
    expect(codes(dayOff)).toContain('time_off');
    // four more 10-hour days in the workweek of Mon 21 Dec: past 40 hours
    for (const d of [25, 26]) await newShift(loc, emp, `2026-12-${d}T12:00:00Z`, `2026-12-${d}T23:00:00Z`);
    const long = await newShift(loc, emp, '2026-12-27T12:00:00Z', '2026-12-27T23:00:00Z');
    expect(codes(long)).toContain('overtime');
    // the cancel of the time off lifts the warning
    await publishEvent(stack, 'time', 'time.time_off_request.cancelled', { id: 'tor_s1', employeeId: emp, startDate: '2026-12-24', endDate: '2026-12-24', partialHours: null, status: 'cancelled', version: 3 });
    await eventually(async () => (await sql(t, `select 1 from scheduling.approved_time_off where id = 'tor_s1' and status = 'cancelled'`)).length > 0 || undefined);
    expect(codes(await t.call('PATCH', `/shifts/${dayOff.body.id}`, { body: { notes: 'covered' } }))).not.toContain('time_off');
  });

  it('approved time off flags the shifts on its days (supplement), and its cancel lifts the flag', async () => {
    const loc = await replicaLocation(t, { timezone: NY });
    const emp = await replicaEmployee(t, { home: loc });
    // 20:00–02:00 New York on the 2nd: the local day is the 2nd even though it ends on the 3rd in UTC and locally
    const late = await newShift(loc, emp, '2027-02-03T01:00:00Z', '2027-02-03T07:00:00Z');
    const next = await newShift(loc, emp, '2027-02-04T14:00:00Z', '2027-02-04T20:00:00Z');
    await publishEvent(stack, 'time', 'time_off.approved', { id: 'tor_flag', employeeId: emp, startDate: '2027-02-02', endDate: '2027-02-02', partialHours: null, status: 'approved', version: 2 });
    const flagged = await eventually(async () => {
      const r = (await t.call('GET', `/shifts/${late.body.id}`)).body;
      return r.flags.length > 0 ? r : undefined;
    });
    expect(flagged.flags).toEqual([{ code: 'time_off', message: 'Time off approved 2027-02-02 (request tor_flag).', sourceId: 'tor_flag' }]);
    expect((await t.call('GET', `/shifts/${next.body.id}`)).body.flags).toEqual([]);
    expect((await outboxPayloads(t, 'scheduling', { type: 'shift.changed', aggregateId: late.body.id })).at(-1)).toMatchObject({ actor: { type: 'system' }, data: { previous: { flags: [] } } });
    await publishEvent(stack, 'time', 'time.time_off_request.cancelled', { id: 'tor_flag', employeeId: emp, startDate: '2027-02-02', endDate: '2027-02-02', partialHours: null, status: 'cancelled', version: 3 });
    await eventually(async () => ((await t.call('GET', `/shifts/${late.body.id}`)).body.flags.length === 0 ? true : undefined));
  });

  it('PUT by externalId creates, then replaces; GET by externalId', async () => {
    const loc = await replicaLocation(t);
    const body = { locationId: loc, position: 'Cook', start: '2026-12-21T10:00:00Z', end: '2026-12-21T14:00:00Z' };
    const first = await t.call('PUT', '/shifts/external/pos-77', { body });
    expect([first.status, first.body.externalId]).toEqual([201, 'pos-77']);
    const again = await t.call('PUT', '/shifts/external/pos-77', { body: { ...body, end: '2026-12-21T15:00:00Z' } });
    expect([again.status, again.body.id, again.body.version, again.body.end]).toEqual([200, first.body.id, 2, '2026-12-21T15:00:00.000Z']);
    expect((await t.call('GET', '/shifts/external/pos-77')).body.id).toBe(first.body.id);
    const dup = await t.call('POST', '/shifts', { body: { ...body, externalId: 'pos-77' } });
    expect([dup.status, dup.body.errors]).toEqual([409, [{ path: 'externalId', message: 'Already used by another shift.' }]]);
  });

  it('publishes a period: drafts become published, open ones posted; double-booking is refused naming both shifts', async () => {
    const loc = await replicaLocation(t, { timezone: NY });
    const other = await replicaLocation(t, { timezone: NY });
    const emp = await replicaEmployee(t, { home: loc, locationIds: [loc, other], firstName: 'Ana' });
    const a = await newShift(loc, emp, '2026-12-28T14:00:00Z', '2026-12-28T22:00:00Z');
    const openOne = await newShift(loc, null, '2026-12-29T14:00:00Z', '2026-12-29T22:00:00Z');
    // the next week's draft stays a draft
    const later = await newShift(loc, emp, '2027-01-05T14:00:00Z', '2027-01-05T22:00:00Z');
    const elsewhere = await t.call('POST', '/shifts', { body: { locationId: other, position: 'Cook', employeeId: emp, start: '2026-12-28T20:00:00Z', end: '2026-12-29T02:00:00Z' } });
    expect((await publish(other, '2026-12-28', '2026-12-28')).body.published).toBe(1);
    const refused = await publish(loc, '2026-12-28', '2027-01-03');
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([
      { path: `shifts.${a.body.id}`, message: `Ana Tester would work shift ${a.body.id} (Mon 28 Dec 09:00–17:00) and shift ${elsewhere.body.id} (Mon 28 Dec 15:00–21:00 at location ${other}, published) at once.` },
    ]);
    expect((await t.call('GET', `/shifts/${a.body.id}`)).body.status).toBe('draft');
    await t.call('PATCH', `/shifts/${a.body.id}`, { body: { end: '2026-12-28T19:00:00Z' } });
    const done = await publish(loc, '2026-12-28', '2027-01-03');
    expect(done.body).toMatchObject({ locationId: loc, from: '2026-12-28', to: '2027-01-03', published: 2, openShifts: 1 });
    expect(done.body.shiftIds.sort()).toEqual([a.body.id, openOne.body.id].sort());
    expect((await t.call('GET', `/shifts/${later.body.id}`)).body.status).toBe('draft');
    expect(await outboxPayloads(t, 'scheduling', { type: 'schedule.published', aggregateId: loc })).toHaveLength(1);
    expect((await outboxPayloads(t, 'scheduling', { type: 'open_shift.posted', aggregateId: openOne.body.id })).length).toBe(1);
    // the employee sees their published shifts only
    const mine = await t.call('GET', '/me/shifts', { as: me(emp) });
    expect(mine.body.data.map((s: { id: string }) => s.id).sort()).toEqual([a.body.id, elsewhere.body.id].sort());
    expect((await t.call('GET', '/me/shifts', { as: person({}) })).body.code).toBe('not_linked_to_employee');
  });

  it('open shifts: listed for eligible employees, claimed once, refused with reasons; a published open shift posts', async () => {
    useClock(fixedClock('2026-12-01T12:00:00Z'));
    const loc = await replicaLocation(t);
    const cook = await replicaEmployee(t, { home: loc, positions: ['Cook'] });
    const server = await replicaEmployee(t, { home: loc, positions: ['Server'] });
    const stranger = await replicaEmployee(t, { home: await replicaLocation(t) });
    const s = await newShift(loc, null, '2026-12-10T10:00:00Z', '2026-12-10T16:00:00Z');
    expect((await t.call('POST', `/me/shifts/${s.body.id}:claim`, { as: me(cook) })).status).toBe(409);
    await publish(loc, '2026-12-10', '2026-12-10');
    expect((await t.call('GET', '/me/open-shifts', { as: me(cook) })).body.data.map((x: { id: string }) => x.id)).toEqual([s.body.id]);
    expect((await t.call('GET', '/me/open-shifts', { as: me(server) })).body.data).toEqual([]);
    expect((await t.call('POST', `/me/shifts/${s.body.id}:claim`, { as: me(stranger) })).status).toBe(404);
    const refused = await t.call('POST', `/shifts/${s.body.id}:claim`, { body: { employeeId: server } });
    expect([refused.status, refused.body.detail]).toEqual([409, `Shift ${s.body.id} cannot go to employee ${server}: Pat Tester does not hold the position Cook (holds Server).`]);
    const claimed = await t.call('POST', `/me/shifts/${s.body.id}:claim`, { as: me(cook) });
    expect([claimed.status, claimed.body.employeeId]).toEqual([200, cook]);
    const ev = await outboxPayloads(t, 'scheduling', { type: 'shift.changed', aggregateId: s.body.id });
    expect(ev.at(-1)).toMatchObject({ actor: { type: 'employee', id: cook }, data: { previous: { employeeId: null } } });
    expect((await t.call('POST', `/shifts/${s.body.id}:claim`, { body: { employeeId: cook } })).status).toBe(409);
    // a published shift left open is posted
    await t.call('PATCH', `/shifts/${s.body.id}`, { body: { employeeId: null } });
    expect(await outboxPayloads(t, 'scheduling', { type: 'open_shift.posted', aggregateId: s.body.id })).toHaveLength(2);
    // started: no longer claimed
    useClock(fixedClock('2026-12-10T11:00:00Z'));
    expect((await t.call('POST', `/me/shifts/${s.body.id}:claim`, { as: me(cook) })).body.detail).toMatch(/has started/);
  });

  it('DELETE archives (draft or published); an archived shift no longer changes', async () => {
    const loc = await replicaLocation(t);
    const s = await newShift(loc, null, '2026-12-21T10:00:00Z', '2026-12-21T14:00:00Z');
    const gone = await t.call('DELETE', `/shifts/${s.body.id}`);
    expect([gone.status, gone.body.status]).toEqual([200, 'archived']);
    expect((await t.call('GET', `/shifts?locationId=${loc}`)).body.data).toEqual([]);
    expect((await t.call('GET', `/shifts?locationId=${loc}&status=archived`)).body.data).toHaveLength(1);
    expect((await t.call('PATCH', `/shifts/${s.body.id}`, { body: { notes: 'x' } })).status).toBe(409);
    expect((await outboxPayloads(t, 'scheduling', { type: 'shift.changed', aggregateId: s.body.id })).at(-1).data.previous).toEqual({ status: 'draft' });
  });

  it('a terminated employee\'s later shifts become open; the last day stays theirs', async () => {
    const loc = await replicaLocation(t, { timezone: NY });
    const emp = await replicaEmployee(t, { home: loc });
    const last = await newShift(loc, emp, '2027-01-15T22:00:00Z', '2027-01-16T03:00:00Z');
    const after = await newShift(loc, emp, '2027-01-16T14:00:00Z', '2027-01-16T20:00:00Z');
    await publish(loc, '2027-01-15', '2027-01-16');
    await publishEvent(stack, 'people', 'employee.terminated', { id: emp, status: 'active', terminationDate: '2027-01-15', version: 9 });
    await eventually(async () => ((await t.call('GET', `/shifts/${after.body.id}`)).body.employeeId === null ? true : undefined));
    expect((await t.call('GET', `/shifts/${last.body.id}`)).body.employeeId).toBe(emp);
    expect(await outboxPayloads(t, 'scheduling', { type: 'open_shift.posted', aggregateId: after.body.id })).toHaveLength(1);
  });
});
