/**
 * Marking timesheets for recalculation when two batches create the same timesheet at once: the one
 * that loses the insert must still mark it, or a recalculation pass that ran between the two commits
 * would drop the only mark and the second batch's punches would never be counted.
 */
import { sql, startTestService, type TestService } from '@bop/test-support';
import { timeService } from '../src';
import { markTimesheets } from '../src/timesheets/marks-store';

let t: TestService;
beforeAll(async () => {
  // the background recalculation idle: this test plays the pass itself
  t = await startTestService(timeService, { TIME_TIMESHEET_POLL_MS: '3600000' });
});
afterAll(async () => {
  await t?.close();
});

const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
};

it('marks a timesheet a concurrent batch created first, so a pass between the two commits keeps a mark', async () => {
  const touch = { employeeId: 'emp_race1', payPeriodId: 'pp_race1', locationId: 'loc_race1' };
  const orm = t.svc.runtime.orm;
  const aMarked = gate();
  const aCommit = gate();
  const a = orm.em.fork().transactional(async (em) => {
    await markTimesheets(em, [touch], new Date());
    aMarked.open();
    await aCommit.opened;
  });
  await aMarked.opened;
  const bMarked = gate();
  const bCommit = gate();
  // waits on a's uncommitted insert of the same timesheet
  const b = orm.em.fork().transactional(async (em) => {
    await markTimesheets(em, [touch], new Date());
    bMarked.open();
    await bCommit.opened;
  });
  await new Promise((r) => setTimeout(r, 200));
  aCommit.open();
  await a;
  await bMarked.opened;
  // a pass reads a's mark now (b's is not committed yet) ...
  const [{ id, seq }] = await sql<{ id: string; seq: string }>(
    t,
    `select t.id, m.seq::text from time.timesheets t join time.timesheet_marks m on m.timesheet_id = t.id where t.employee_id = $1 and t.pay_period_id = $2`,
    [touch.employeeId, touch.payPeriodId],
  );
  bCommit.open();
  await b;
  // ... and drops it only if nothing marked it again meanwhile: b did
  await sql(t, `delete from time.timesheet_marks where timesheet_id = $1 and seq = $2::bigint`, [id, seq]);
  expect(await sql(t, `select timesheet_id from time.timesheet_marks where timesheet_id = $1`, [id])).toHaveLength(1);
  expect(await sql(t, `select id from time.timesheets where employee_id = $1`, [touch.employeeId])).toHaveLength(1);
});
