import { newId, sqlQuery, type Work } from '@bop/shared';

/** A timesheet a change touches: the employee's in a pay period (created `open` at the first punch, with the home location). */
export interface TimesheetTouch {
  employeeId: string;
  payPeriodId: string;
  locationId: string;
}

/**
 * In the transaction of the change: creates the timesheets touched that do not exist yet (`open`),
 * withdraws the approval (or rejection) of those that do (supplement: a punch in it changes → `open`),
 * and appends one row naming them all to the touch log, which the recalculation folds into its marks
 * (`foldTouches`). A change takes no per-timesheet mark, so concurrent batches touching the same
 * timesheets never wait on each other, and a timesheet that many batches touch between two passes is
 * marked once. Locked timesheets are never touched (the change was held before it got here), and
 * the fold skips them.
 */
export async function markTimesheets(w: Work, touches: TimesheetTouch[]): Promise<void> {
  const { now } = w;
  // one touch per timesheet (the statement inserts in (period, employee) order itself)
  const unique = [...new Map(touches.map((t) => [`${t.payPeriodId}|${t.employeeId}`, t])).values()];
  if (unique.length === 0) return;
  const payload = JSON.stringify(unique.map((t) => ({ id: newId('timesheet'), employee_id: t.employeeId, pay_period_id: t.payPeriodId, location_id: t.locationId })));
  // raw SQL (bench:sql time.mark-timesheets): 598,180 µs against 1,751,268 through the ORM (2.93×: one statement; the ORM reads, inserts, flushes the reopened, logs)
  // one statement (one parse of the payload): the existing timesheets found by one join, only the
  // missing ones inserted, the decided ones reopened, and the pairs logged. A timesheet a concurrent
  // batch inserts first is neither found nor inserted here (the insert waits for that batch's commit,
  // then does nothing); its pair is logged all the same, and the fold, which runs after this commit,
  // finds it by the pair. The existing ones are held (key share, in id order) until the commit: an
  // approval or a period lock (for update) waits for the batch and then sees its punches, and one
  // committed first is seen here and withdrawn; concurrent batches, and the recalculation pass (for no
  // key update), never wait on it.
  await sqlQuery(
    w.em,
    `with x as materialized (select * from jsonb_to_recordset(?::jsonb) as x("id" text, "employee_id" text, "pay_period_id" text, "location_id" text)),
     existing as materialized (
       select t."id", t."status", x."pay_period_id", x."employee_id" from x join "${w.schema}"."timesheets" t on t."pay_period_id" = x."pay_period_id" and t."employee_id" = x."employee_id"
       order by t."id" for key share of t),
     created as (
       insert into "${w.schema}"."timesheets" ("id", "employee_id", "pay_period_id", "location_id", "status", "version", "created_at", "updated_at")
       select x."id", x."employee_id", x."pay_period_id", x."location_id", 'open', 1, ?, ? from x
       where not exists (select 1 from existing e where e."pay_period_id" = x."pay_period_id" and e."employee_id" = x."employee_id")
       order by x."pay_period_id", x."employee_id"
       on conflict ("pay_period_id", "employee_id") do nothing
       returning 1),
     reopened as (
       update "${w.schema}"."timesheets" t set "status" = 'open', "approved_at" = null, "approved_by" = null, "version" = t."version" + 1, "updated_at" = ?
       from existing e where t."id" = e."id" and e."status" in ('approved', 'rejected')
       returning 1)
     insert into "${w.schema}"."timesheet_touches" ("employee_ids", "pay_period_ids", "touched_at")
     select array_agg(x."employee_id"), array_agg(x."pay_period_id"), ? from x`,
    [payload, now, now, now, now],
  );
}

/** Log rows folded per statement (each holds up to a batch's timesheets). */
export const FOLD_ROWS = 50;

/**
 * Folds the touch log into the marks, oldest rows first, until it is empty: each logged timesheet
 * (found by its pair; locked ones skipped) marked once, with a new `seq` when it was marked already
 * (a pass that read the older mark leaves this one). Rows a concurrent fold took are skipped (their
 * delete waits for it, then finds them gone); rows committed after the fold began are left for the
 * next one. Answers how many rows it folded.
 */
export async function foldTouches(w: Work): Promise<number> {
  let folded = 0;
  for (;;) {
    const rows = await foldTouchRows(w);
    folded += rows;
    if (rows < FOLD_ROWS) return folded;
  }
}

/**
 * One statement of the fold: up to `FOLD_ROWS` log rows into the marks; answers how many it took (the
 * log is empty when fewer). The background pass runs each in a transaction of its own, so it never
 * holds marks while it waits on another fold's log rows.
 */
export async function foldTouchRows(w: Work): Promise<number> {
  // raw SQL (bench:sql time.fold-touches): 202,979 µs against 510,743 through the ORM (2.52×: one statement; the ORM reads and deletes the log, reads timesheets, marks)
  const [{ rows }] = await sqlQuery<{ rows: number }>(
    w.em,
    `with taken as (
       delete from "${w.schema}"."timesheet_touches" where "seq" in (select "seq" from "${w.schema}"."timesheet_touches" order by "seq" limit ?)
       returning "employee_ids", "pay_period_ids"),
     pairs as (select distinct u."employee_id", u."pay_period_id" from taken, unnest(taken."employee_ids", taken."pay_period_ids") as u("employee_id", "pay_period_id")),
     marked as (
       insert into "${w.schema}"."timesheet_marks" ("timesheet_id", "marked_at")
       select t."id", ? from pairs p join "${w.schema}"."timesheets" t on t."pay_period_id" = p."pay_period_id" and t."employee_id" = p."employee_id"
       where t."status" <> 'locked' order by t."id"
       on conflict ("timesheet_id") do update set "seq" = nextval('"${w.schema}"."timesheet_mark_seq"'), "marked_at" = excluded."marked_at"
       returning 1)
     select (select count(*) from taken)::int as "rows", (select count(*) from marked)::int as "marks"`,
    [FOLD_ROWS, w.now],
  );
  return rows;
}

/** Whether changes are logged and not yet folded (a feed is sending). */
export async function touchesPending(w: Work): Promise<boolean> {
  // raw SQL (bench:sql time.touches-pending): 211 µs against 1,018 through the ORM (4.82×: an exists: the ORM's own cost)
  const [{ pending }] = await sqlQuery<{ pending: boolean }>(w.em, `select exists (select 1 from "${w.schema}"."timesheet_touches") as "pending"`);
  return pending;
}

/**
 * The ids of `sheets` still waiting to be recalculated: marked, or touched by a change not yet folded
 * into the marks. One statement, so one snapshot: a fold moving a touch into a mark between two reads
 * would otherwise hide it from both.
 */
export async function pendingTimesheetIds(w: Work, sheets: Array<{ id: string; employeeId: string; payPeriodId: string }>): Promise<Set<string>> {
  if (sheets.length === 0) return new Set();
  // raw SQL (bench:sql time.pending-ids): 6,578 µs against 41,313 through the ORM (6.28×: one statement; the ORM reads the whole touch log)
  const rows = await sqlQuery<{ id: string }>(
    w.em,
    `with x as materialized (select * from jsonb_to_recordset(?::jsonb) as x("id" text, "employee_id" text, "pay_period_id" text))
     select x."id" from x where exists (select 1 from "${w.schema}"."timesheet_marks" m where m."timesheet_id" = x."id")
     union
     select x."id" from x join (
       select u."employee_id", u."pay_period_id" from "${w.schema}"."timesheet_touches" l, unnest(l."employee_ids", l."pay_period_ids") as u("employee_id", "pay_period_id")
     ) u on u."employee_id" = x."employee_id" and u."pay_period_id" = x."pay_period_id"`,
    [JSON.stringify(sheets.map((t) => ({ id: t.id, employee_id: t.employeeId, pay_period_id: t.payPeriodId })))],
  );
  return new Set(rows.map((r) => r.id));
}
