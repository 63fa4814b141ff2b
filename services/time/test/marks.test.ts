/**
 * Marking timesheets for recalculation when two batches create the same timesheet at once: the one
 * that loses the insert must still have it marked, or a recalculation pass that ran between the two
 * commits would drop the only mark and the second batch's punches would never be counted. A batch
 * logs the pairs it touched; the fold (before each pass) turns the log into marks.
 */
import { eventually, gate, sql, startTestService, type TestService } from '@bop/test-support';
import { timeService } from '../src';
import { foldTouches, markTimesheets } from '../src/timesheets/marks-store';

let t: TestService;
beforeAll(async () => {
  // no background recalculation: this test plays the pass itself
  t = await startTestService(timeService, {}, { workers: false });
});
afterAll(async () => {
  await t?.close();
});

it('marks a timesheet a concurrent batch created first, so a pass between the two commits keeps a mark', async () => {
  const touch = { employeeId: 'emp_race1', payPeriodId: 'pp_race1', locationId: 'loc_race1' };
  const { runtime } = t.svc;
  const aMarked = gate();
  const aCommit = gate();
  const a = runtime.write(async (w) => {
    await markTimesheets(w, [touch]);
    aMarked.open();
    await aCommit.opened;
  });
  await aMarked.opened;
  const bMarked = gate();
  const bCommit = gate();
  // waits on a's uncommitted insert of the same timesheet
  const b = runtime.write(async (w) => {
    await markTimesheets(w, [touch]);
    bMarked.open();
    await bCommit.opened;
  });
  // b's insert waits on a's lock
  await eventually(async () => (await sql(t, `select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)).length > 0);
  aCommit.open();
  await a;
  await bMarked.opened;
  // a pass folds a's log row (b's is not committed yet) and reads the mark ...
  expect(await runtime.write((w) => foldTouches(w))).toBe(1);
  const [{ id, seq }] = await sql<{ id: string; seq: string }>(
    t,
    `select t.id, m.seq::text from time.timesheets t join time.timesheet_marks m on m.timesheet_id = t.id where t.employee_id = $1 and t.pay_period_id = $2`,
    [touch.employeeId, touch.payPeriodId],
  );
  bCommit.open();
  await b;
  // ... and drops it once recalculated; b's touch is still logged, so the next fold marks it again
  await sql(t, `delete from time.timesheet_marks where timesheet_id = $1 and seq = $2::bigint`, [id, seq]);
  expect(await runtime.write((w) => foldTouches(w))).toBe(1);
  expect(await sql(t, `select timesheet_id from time.timesheet_marks where timesheet_id = $1`, [id])).toHaveLength(1);
  expect(await sql(t, `select id from time.timesheets where employee_id = $1`, [touch.employeeId])).toHaveLength(1);
  expect(await sql(t, `select seq from time.timesheet_touches`)).toHaveLength(0);
});

it('folds a touch into a new seq when the timesheet is marked already, and skips locked timesheets', async () => {
  const { runtime } = t.svc;
  const open = { employeeId: 'emp_fold1', payPeriodId: 'pp_fold1', locationId: 'loc_fold1' };
  const locked = { employeeId: 'emp_fold2', payPeriodId: 'pp_fold1', locationId: 'loc_fold1' };
  await runtime.write((w) => markTimesheets(w, [open, locked]));
  await runtime.write((w) => foldTouches(w));
  const before = await sql<{ employee_id: string; seq: string }>(
    t,
    `select t.employee_id, m.seq::text from time.timesheets t join time.timesheet_marks m on m.timesheet_id = t.id where t.pay_period_id = 'pp_fold1' order by t.employee_id`,
  );
  expect(before.map((r) => r.employee_id)).toEqual(['emp_fold1', 'emp_fold2']);
  await sql(t, `update time.timesheets set status = 'locked' where employee_id = 'emp_fold2'`);
  await sql(t, `delete from time.timesheet_marks m using time.timesheets t where t.id = m.timesheet_id and t.employee_id = 'emp_fold2'`);
  await runtime.write((w) => markTimesheets(w, [open, open, locked]));
  expect(await runtime.write((w) => foldTouches(w))).toBe(1);
  const after = await sql<{ employee_id: string; seq: string }>(
    t,
    `select t.employee_id, m.seq::text from time.timesheets t join time.timesheet_marks m on m.timesheet_id = t.id where t.pay_period_id = 'pp_fold1' order by t.employee_id`,
  );
  expect(after).toHaveLength(1);
  expect(after[0].employee_id).toBe('emp_fold1');
  expect(BigInt(after[0].seq)).toBeGreaterThan(BigInt(before[0].seq));
});

it('a recalculation round drops what is marked, and one with nothing marked answers false and writes nothing', async () => {
  const worker = t.svc.worker('timesheet-recalc');
  await worker.runOnce();
  expect(await sql(t, `select timesheet_id from time.timesheet_marks`)).toHaveLength(0);
  const before = await sql(t, `select id, version, calculated_at from time.timesheets order by id`);
  expect(await worker.runOnce()).toBe(false);
  expect(await sql(t, `select id, version, calculated_at from time.timesheets order by id`)).toEqual(before);
  expect(await sql(t, `select seq from time.timesheet_touches`)).toHaveLength(0);
});
