/**
 * A timesheet approval racing a punch batch (issue 38, item 7): the approval must not approve figures
 * that a punch committed around it makes stale. The batch below stores a shift and holds its
 * transaction open (its timesheet already reopened and logged for recalculation) while the approval
 * is asked for; the approval waits for the batch, then approves the figures that count its shift —
 * never the figures from before it, left approved.
 */
import { eventually, gate, sql, startTestService, type TestService } from '@bop/test-support';
import { timeService } from '../src';
import { ingestPunches } from '../src/punches/ingest-store';
import { timeSettings } from '../src/settings/company-settings';
import { currentTimesheet, replicaEmployee, replicaLocation, sendPunches, shift } from './fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(timeService, {}, { workers: false });
});
afterAll(async () => {
  await t?.close();
});

it('an approval asked while a punch batch is being stored waits for it and approves the figures that count its punches', async () => {
  const loc = await replicaLocation(t);
  const emp = await replicaEmployee(t, { home: loc });
  expect((await sendPunches(t, 'race', shift('mon', emp, loc, '2026-02-16T08:00:00Z', '2026-02-16T16:00:00Z'))).status).toBe(202);
  const sheet = await currentTimesheet(t, emp);
  expect(sheet.totals.workedHours).toBe('8.00');

  // the batch: a second shift stored, then held before its commit
  const stored = gate();
  const commit = gate();
  const batch = t.svc.runtime.write(async (w) => {
    const result = await ingestPunches(w, { source: 'race', records: shift('tue', emp, loc, '2026-02-17T08:00:00Z', '2026-02-17T12:00:00Z'), endpoint: 'POST /time/punches:batch', settings: () => timeSettings(w.services) });
    stored.open();
    await commit.opened;
    return result;
  });
  await stored.opened;

  // the approval, while the batch holds its transaction: it answers, or it waits on the batch's lock
  let answered = false;
  const approval = t.call('POST', `/time/timesheets/${sheet.id}:approve`).then((r) => {
    answered = true;
    return r;
  });
  try {
    await eventually(async () => answered || (await sql(t, `select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)).length > 0 || undefined);
    expect(answered).toBe(false); // it waits for the batch
  } finally {
    commit.open();
  }
  expect((await batch).created).toBe(2);
  const approved = await approval;
  expect(approved.status).toBe(200);
  expect(approved.body).toMatchObject({ status: 'approved', totals: { workedHours: '12.00' } });
  const after = await currentTimesheet(t, emp);
  expect(after).toMatchObject({ status: 'approved', totals: { workedHours: '12.00' } });
});
