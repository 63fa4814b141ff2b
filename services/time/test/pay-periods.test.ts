import { http, outboxPayloads, person, startTestService, testKeys, type TestService } from '@bop/test-support';
import { timeService } from '../src';
import { currentTimesheet as currentTimesheetOf, punch, replicaEmployee, replicaLocation, replicaRate, sendPunches, shift } from './fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(timeService, {}, { workers: false });
});
afterAll(async () => {
  await t?.close();
});

const batch = (source: string, punches: unknown[]) => sendPunches(t, source, punches);

const sheetOf = (employeeId: string) => currentTimesheetOf(t, employeeId);

/** A CSV text back into rows of cells (quoted cells with commas and doubled quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  for (const line of text.trimEnd().split('\r\n')) {
    const cells: string[] = [];
    let cell = '';
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (quoted) {
        if (c === '"' && line[i + 1] === '"') {
          cell += '"';
          i++;
        } else if (c === '"') quoted = false;
        else cell += c;
      } else if (c === '"') quoted = true;
      else if (c === ',') {
        cells.push(cell);
        cell = '';
      } else cell += c;
    }
    cells.push(cell);
    rows.push(cells);
  }
  return rows;
}

describe('pay periods', () => {
  it('lock only when every timesheet is approved, hold backdated punches, export JSON and CSV, unlock with a reason', async () => {
    // the biweekly period of 2026-03-30 to 2026-04-12 (company settings default: anchor 2026-01-05)
    const loc = await replicaLocation(t);
    const cook = await replicaEmployee(t, { home: loc, positions: ['Cook', 'Prep'], firstName: 'Ann, "Chef"' });
    const server = await replicaEmployee(t, { home: loc, positions: ['Server'] });
    await replicaRate(t, cook, '20.00', '2025-01-01');
    await replicaRate(t, cook, '22.50', '2026-04-06');
    await replicaRate(t, cook, '25.00', '2026-01-01', 'Prep');
    await replicaRate(t, server, '15.00', '2025-06-01');
    // Monday 10 h and Monday a week later 10 h as a cook (rate changes between), and 2 h of prep
    const r = await batch('clock-p', [
      ...shift('c1', cook, loc, '2026-03-30T08:00:00Z', '2026-03-30T18:00:00Z'),
      ...shift('c2', cook, loc, '2026-04-06T08:00:00Z', '2026-04-06T18:00:00Z'),
      punch('c3-in', cook, loc, 'clock_in', '2026-04-07T08:00:00Z', { position: 'Prep' }),
      punch('c3-out', cook, loc, 'clock_out', '2026-04-07T10:00:00Z', { position: 'Prep' }),
      ...shift('s1', server, loc, '2026-04-01T10:00:00Z', '2026-04-01T14:00:00Z'),
    ]);
    expect(r.body.created).toBe(8);
    await t.call('PUT', '/time/overtime-rules', { body: { locationId: loc, daily: [{ after: '8', multiplier: '1.5' }], weekly: [], consecutiveDay: null } });
    const cookSheet = await sheetOf(cook);
    expect(cookSheet.totals.overtime['1.5']).toBe('4.00');
    const serverSheet = await sheetOf(server);
    const periods = await t.call('GET', '/time/pay-periods?from=2026-03-30');
    const period = periods.body.data.find((p: { startDate: string }) => p.startDate === '2026-03-30');
    expect(period).toMatchObject({ endDate: '2026-04-12', status: 'ended', timesheets: { open: 2, approved: 0 }, heldPunches: 0, lockedAt: null });

    const refused = await t.call('POST', `/time/pay-periods/${period.id}:lock`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('conflict');
    expect(refused.body.detail).toContain(cookSheet.id);
    expect(refused.body.detail).toContain(serverSheet.id);
    for (const s of [cookSheet, serverSheet]) expect((await t.call('POST', `/time/timesheets/${s.id}:approve`)).status).toBe(200);
    const locked = await t.call('POST', `/time/pay-periods/${period.id}:lock`);
    expect(locked.status).toBe(200);
    expect(locked.body).toMatchObject({ status: 'locked', timesheets: { locked: 2, approved: 0 }, lockedBy: { type: 'user' } });
    expect((await outboxPayloads(t, 'time', { type: 'pay_period.locked', aggregateId: period.id }))).toHaveLength(1);
    expect((await t.call('GET', `/time/timesheets/${cookSheet.id}`)).body.status).toBe('locked');

    // a backdated punch into the locked period is held, counted as such, and changes no figure
    const late = await batch('clock-p', [punch('late-in', server, loc, 'clock_in', '2026-04-02T10:00:00Z'), punch('late-out', server, loc, 'clock_out', '2026-04-02T12:00:00Z')]);
    expect(late.body).toMatchObject({ created: 2, held: 2 });
    expect(late.body.results[0].warnings[0].message).toContain('locked');
    const held = await t.call('GET', `/time/punches?status=held&employeeId=${server}`);
    expect(held.body.data.map((p: { status: string; externalId: string }) => [p.externalId, p.status])).toEqual([
      ['late-in', 'held'],
      ['late-out', 'held'],
    ]);
    // a time range is applied before paging: a one-record page of the range holds the one that falls in it
    const ranged = await t.call('GET', `/time/punches?status=held&employeeId=${server}&from=2026-04-02T11:00:00Z&to=2026-04-02T13:00:00Z&limit=1`);
    expect(ranged.body.data.map((p: { externalId: string }) => p.externalId)).toEqual(['late-out']);
    expect(ranged.body).toMatchObject({ hasMore: false, nextCursor: null });
    // so is a change to a punch already counted in it; a correction there is refused
    expect((await batch('clock-p', [punch('s1-out', server, loc, 'clock_out', '2026-04-01T15:00:00Z')])).body).toMatchObject({ updated: 0, created: 1, held: 1 });
    const s1out = (await t.call('GET', `/time/punches?employeeId=${server}&from=2026-04-01T13:00:00Z&to=2026-04-01T16:00:00Z`)).body.data[0];
    expect(s1out.occurredAt).toBe('2026-04-01T14:00:00.000Z');
    const correct = await t.call('POST', `/time/punches/${s1out.id}:correct`, { body: { occurredAt: '2026-04-01T14:30:00Z', reason: 'forgot' } });
    expect([correct.status, correct.body.code]).toEqual([409, 'period_locked']);
    expect((await t.call('GET', `/time/timesheets/${serverSheet.id}`)).body).toMatchObject({ status: 'locked', totals: { workedHours: '4.00' } });

    // the export: per employee, position and rate in force; a rate changing mid-period gives two lines
    const json = await t.call('GET', `/time/pay-periods/${period.id}/export`);
    expect(json.status).toBe(200);
    const cookLines = json.body.employees.find((e: { employeeId: string }) => e.employeeId === cook);
    expect(cookLines.lines).toEqual([
      { position: null, rateType: 'hourly', rate: '20', from: '2026-03-30', to: '2026-03-30', regularHours: '8.00', overtime: { '1.5': '2.00' }, timeOffHours: '0.00', estimatedGross: '220.00' },
      { position: null, rateType: 'hourly', rate: '22.5', from: '2026-04-06', to: '2026-04-06', regularHours: '8.00', overtime: { '1.5': '2.00' }, timeOffHours: '0.00', estimatedGross: '247.50' },
      { position: 'Prep', rateType: 'hourly', rate: '25', from: '2026-04-07', to: '2026-04-07', regularHours: '2.00', overtime: {}, timeOffHours: '0.00', estimatedGross: '50.00' },
    ]);
    expect(cookLines.totals).toEqual({ regularHours: '18.00', overtimeHours: '4.00', timeOffHours: '0.00', estimatedGross: '517.50' });
    expect(json.body.totals).toEqual({ regularHours: '22.00', overtimeHours: '4.00', timeOffHours: '0.00', estimatedGross: '577.50' });

    const csv = await http(t.svc.url, 'GET', `/time/pay-periods/${period.id}/export?format=csv`, { headers: { 'x-internal-token': await (await testKeys()).signer.sign(person()) } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const rows = parseCsv(csv.body);
    const header = rows[0];
    const records = rows.slice(1).map((cells) => Object.fromEntries(header.map((h, i) => [h, cells[i]])));
    expect(records).toHaveLength(4);
    expect(records.filter((x) => x.employeeId === cook).map((x) => [x.firstName, x.rate, x.regularHours, x.overtimeHours, x.overtimeByMultiplier, x.estimatedGross])).toEqual([
      ['Ann, "Chef"', '20', '8.00', '2.00', '1.5x:2.00', '220.00'],
      ['Ann, "Chef"', '22.5', '8.00', '2.00', '1.5x:2.00', '247.50'],
      ['Ann, "Chef"', '25', '2.00', '0.00', '', '50.00'],
    ]);
    const accept = await http(t.svc.url, 'GET', `/time/pay-periods/${period.id}/export`, { headers: { accept: 'text/csv', 'x-internal-token': await (await testKeys()).signer.sign(person()) } });
    expect(accept.body).toBe(csv.body);

    // unlocking needs a reason; the held punches are applied and their timesheet is reopened
    expect((await t.call('POST', `/time/pay-periods/${period.id}:unlock`, { body: {} })).status).toBe(422);
    const unlocked = await t.call('POST', `/time/pay-periods/${period.id}:unlock`, { body: { reason: 'late punches from the back door' } });
    expect(unlocked.body).toMatchObject({ status: 'ended', heldPunches: 0, unlocks: [expect.objectContaining({ reason: 'late punches from the back door' })] });
    const [unlockEvent, ...moreUnlocks] = await outboxPayloads(t, 'time', { type: 'pay_period.unlocked', aggregateId: period.id });
    expect(moreUnlocks).toHaveLength(0);
    expect(unlockEvent).toMatchObject({ locationId: null, data: { object: unlocked.body } });
    const after = await sheetOf(server);
    expect(after.totals.workedHours).toBe('7.00');
    expect(after.status).toBe('open');
    expect((await t.call('GET', `/time/timesheets/${cookSheet.id}`)).body.status).toBe('approved');
    expect((await t.call('GET', `/time/pay-periods/${period.id}/export`)).body.code).toBe('conflict');
  });

  it('refuse to lock a period that has not ended', async () => {
    const current = (await t.call('GET', '/time/pay-periods?status=open')).body.data;
    expect(current.length).toBeGreaterThan(0);
    const r = await t.call('POST', `/time/pay-periods/${current[0].id}:lock`);
    expect([r.status, r.body.code]).toEqual([409, 'conflict']);
    expect(r.body.detail).toContain('has not ended');
  });

  it('are company-wide: locking needs reach Everyone', async () => {
    const ended = (await t.call('GET', '/time/pay-periods?status=ended')).body.data;
    const r = await t.call('POST', `/time/pay-periods/${ended[0]?.id ?? 'ppd_x'}:lock`, { as: person({ 'pay_periods.lock': [{ type: 'locations', ids: ['loc_a'] }] }) });
    expect(r.body.code).toBe('out_of_reach');
  });
});

describe('POST /time/punches/{id}:correct', () => {
  it('changes the time with a reason, keeps the original and the history, recalculates the timesheet', async () => {
    const loc = await replicaLocation(t);
    const emp = await replicaEmployee(t, { home: loc });
    const r = await batch('clock-c', shift('k', emp, loc, '2026-05-04T08:00:00Z', '2026-05-04T12:00:00Z'));
    const outId = r.body.results[1].id;
    expect((await sheetOf(emp)).totals.workedHours).toBe('4.00');
    const c = await t.call('POST', `/time/punches/${outId}:correct`, { body: { occurredAt: '2026-05-04T13:00:00Z', reason: 'Clocked out late at the register' } });
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ occurredAt: '2026-05-04T13:00:00.000Z', original: { type: 'clock_out', occurredAt: '2026-05-04T12:00:00.000Z' }, version: 2 });
    expect(c.body.corrections).toEqual([expect.objectContaining({ reason: 'Clocked out late at the register', via: 'correction', by: { type: 'user', id: 'usr_test' } })]);
    expect((await sheetOf(emp)).totals.workedHours).toBe('5.00');
    expect((await outboxPayloads(t, 'time', { type: 'punch.corrected', aggregateId: outId }))[0]).toMatchObject({ data: { previous: { occurredAt: '2026-05-04T12:00:00.000Z' } } });
    // a re-send of what the timeclock sent before is unchanged: the correction stands
    expect((await batch('clock-c', shift('k', emp, loc, '2026-05-04T08:00:00Z', '2026-05-04T12:00:00Z'))).body.unchanged).toBe(2);
    const bad = await t.call('POST', `/time/punches/${outId}:correct`, { body: { reason: 'nothing' } });
    expect(bad.status).toBe(422);
    expect((await t.call('POST', '/time/punches/pun_nope:correct', { body: { type: 'clock_in', reason: 'x' } })).status).toBe(404);
  });
});
