/**
 * Notifications made from the real events of the services that produce them, across services through
 * the gateway (all-in-one runtime): people hires the staff (communication's employee replica and
 * contacts), scheduling publishes a schedule with an open shift and decides a swap, time decides time
 * off, equipment assigns a work order, communication publishes an announcement. Each person concerned
 * gets one notification of each kind, none for others.
 */
import { eventually, ownerApi, sql, startTestRuntime, type TestRuntime } from '@bop/test-support';

let t: TestRuntime;
beforeAll(async () => {
  t = await startTestRuntime({ STORAGE_S3_BUCKET: '' });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const { ok } = ownerApi(() => t);
/** A day from today (UTC), as `YYYY-MM-DD`. */
const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
/** `n`, or the first day after it that is a workday (Monday to Friday): time off must hold one */
const workday = (n: number): number => ([0, 6].includes(new Date(Date.now() + n * 86_400_000).getUTCDay()) ? workday(n + 1) : n);

/** The kinds (and subjects) of a person's notifications once `count` have been made. */
async function notified(employeeId: string, count: number): Promise<Array<[string, string]>> {
  const rows = await eventually(async () => {
    const r = await sql(t.db.url, `select kind, subject_id from communication.notifications where employee_id = $1 order by kind, subject_id`, [employeeId]);
    return r.length >= count ? r : undefined;
  }, 30_000);
  return rows.map((r: { kind: string; subject_id: string }) => [r.kind, r.subject_id]);
}

it('schedule published, open shift, swap requested and approved, time off decided, work order assigned and announcement published notify the people concerned, from their producers\' events', async () => {
  await ok('PATCH', '/company-settings', { positions: ['Cook'] }, 200);
  const loc = (await ok('POST', '/locations', { name: 'Harbour kitchen', timezone: 'UTC' })).id as string;
  const hire = async (first: string) => (await ok('POST', '/employees', { legalFirstName: first, legalLastName: 'Cook', homeLocationId: loc, hireDate: '2026-01-05', positions: ['Cook'], email: `${first.toLowerCase()}@example.com` })).id as string;
  const [ana, ben, cara] = [await hire('Ana'), await hire('Ben'), await hire('Cara')];
  // communication's replica of people's employees (the audience of offers and announcements)
  await eventually(async () => (await sql(t.db.url, `select 1 from communication.employees where id = any($1)`, [[ana, ben, cara]])).length === 3, 30_000);

  // scheduling: a week with Ana's and Ben's shifts and an open one, published
  const shiftAt = async (employeeId: string | null, d: number) => (await ok('POST', '/shifts', { locationId: loc, position: 'Cook', employeeId, start: `${day(d)}T09:00:00Z`, end: `${day(d)}T17:00:00Z` })).id as string;
  const anaShift = await shiftAt(ana, 3);
  await shiftAt(ben, 4);
  const open = await shiftAt(null, 5);
  await ok('POST', '/schedules:publish', { locationId: loc, from: day(3), to: day(5) }, 200);

  // scheduling: Ana asks Cara to take her shift, the manager approves
  const swap = (await ok('POST', '/shift-swaps', { shiftId: anaShift, toEmployeeId: cara })).id as string;
  await eventually(async () => (await sql(t.db.url, `select 1 from communication.notifications where kind = 'swap_requested' and employee_id = $1`, [cara])).length === 1, 30_000);
  await ok('POST', `/shift-swaps/${swap}:approve`, undefined, 200);

  // time: Ben's time off approved, another one rejected
  const type = (await ok('POST', '/time-off/types', { name: 'Vacation', paid: true, allowNegativeBalance: true })).id as string;
  await ok('POST', '/time-off/policies', { typeId: type, name: 'Standard', accrual: { kind: 'none' } });
  const approved = (await ok('POST', '/time-off/requests', { employeeId: ben, typeId: type, startDate: day(workday(20)), endDate: day(workday(20) + 1) })).id as string;
  await ok('POST', `/time-off/requests/${approved}:approve`, undefined, 200);
  const rejected = (await ok('POST', '/time-off/requests', { employeeId: ben, typeId: type, startDate: day(workday(30)), endDate: day(workday(30)) })).id as string;
  await ok('POST', `/time-off/requests/${rejected}:reject`, { reason: 'Inventory day' }, 200);

  // equipment: a work order assigned to Ben
  const order = (await ok('POST', '/work-orders', { title: 'Descale the dishwasher', locationId: loc, assigneeEmployeeId: ben })).id as string;

  // communication: an announcement to the location, published at once
  const announcement = (await ok('POST', '/announcements', { title: 'New allergen procedure', body: 'Read it.', audience: { locationIds: [loc] } })).id as string;
  await ok('POST', `/announcements/${announcement}:publish`, {}, 200);

  const sorted = (rows: Array<[string, string]>) => [...rows].sort((a, b) => `${a[0]} ${a[1]}`.localeCompare(`${b[0]} ${b[1]}`));
  expect(await notified(ana, 4)).toEqual(sorted([['announcement_published', announcement], ['schedule_published', loc], ['shift_offered', open], ['swap_decided', swap]]));
  expect(await notified(ben, 6)).toEqual(
    sorted([['announcement_published', announcement], ['schedule_published', loc], ['shift_offered', open], ['time_off_decided', approved], ['time_off_decided', rejected], ['work_order_assigned', order]]),
  );
  expect(await notified(cara, 4)).toEqual(sorted([['announcement_published', announcement], ['shift_offered', open], ['swap_decided', swap], ['swap_requested', swap]]));
}, 180_000);
