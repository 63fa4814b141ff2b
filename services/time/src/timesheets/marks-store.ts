import { newId, sqlList, sqlQuery, type EntityManager } from '@bop/shared';

/** A timesheet a change touches: the employee's in a pay period (created `open` at the first punch, with the home location). */
export interface TimesheetTouch {
  employeeId: string;
  payPeriodId: string;
  locationId: string;
}

/**
 * In the transaction of the change: creates the timesheets touched that do not exist yet (`open`),
 * withdraws the approval (or rejection) of those that do (supplement: a punch in it changes → `open`),
 * and marks them for the background recalculation. Locked timesheets are never touched (the change was
 * held before it got here).
 */
export async function markTimesheets(em: EntityManager, touches: TimesheetTouch[], now: Date): Promise<void> {
  // one touch per timesheet (the statement inserts and locks in (period, employee) order itself)
  const unique = [...new Map(touches.map((t) => [`${t.payPeriodId}|${t.employeeId}`, t])).values()];
  if (unique.length === 0) return;
  const payload = JSON.stringify(unique.map((t) => ({ id: newId('timesheet'), employee_id: t.employeeId, pay_period_id: t.payPeriodId, location_id: t.locationId })));
  // one statement (one parse of the payload): the existing timesheets found by one join; only the
  // missing ones inserted; the decided ones reopened; all of them marked. It answers the ones a
  // concurrent batch inserted first (neither found nor inserted here: invisible to this statement),
  // which the next statement, seeing that batch's commit, marks too. (Taking those rows with
  // `do update` instead would wait on a recalculation pass holding them, while that pass waits on
  // the marks taken here: it can deadlock.)
  const raced = await sqlQuery<{ employee_id: string; pay_period_id: string }>(
    em,
    `with x as materialized (select * from jsonb_to_recordset(?::jsonb) as x("id" text, "employee_id" text, "pay_period_id" text, "location_id" text)),
     existing as materialized (
       select t."id", t."status", x."pay_period_id", x."employee_id" from x join "time"."timesheets" t on t."pay_period_id" = x."pay_period_id" and t."employee_id" = x."employee_id"),
     created as (
       insert into "time"."timesheets" ("id", "employee_id", "pay_period_id", "location_id", "status", "version", "created_at", "updated_at")
       select x."id", x."employee_id", x."pay_period_id", x."location_id", 'open', 1, ?, ? from x
       where not exists (select 1 from existing e where e."pay_period_id" = x."pay_period_id" and e."employee_id" = x."employee_id")
       order by x."pay_period_id", x."employee_id"
       on conflict ("pay_period_id", "employee_id") do nothing
       returning "id", "pay_period_id", "employee_id"),
     reopened as (
       update "time"."timesheets" t set "status" = 'open', "approved_at" = null, "approved_by" = null, "version" = t."version" + 1, "updated_at" = ?
       from existing e where t."id" = e."id" and e."status" in ('approved', 'rejected')
       returning t."id"),
     marked as (
       insert into "time"."timesheet_marks" ("timesheet_id", "marked_at")
       select "id", ? from (select "id" from created union all select "id" from existing where "status" <> 'locked') touched order by "id"
       on conflict ("timesheet_id") do update set "seq" = nextval('"time"."timesheet_mark_seq"'), "marked_at" = excluded."marked_at"
       returning 1)
     select x."employee_id", x."pay_period_id" from x
     where not exists (select 1 from existing e where e."pay_period_id" = x."pay_period_id" and e."employee_id" = x."employee_id")
       and not exists (select 1 from created c where c."pay_period_id" = x."pay_period_id" and c."employee_id" = x."employee_id")`,
    [payload, now, now, now, now],
  );
  if (raced.length > 0) {
    await sqlQuery(
      em,
      `insert into "time"."timesheet_marks" ("timesheet_id", "marked_at")
       select t."id", ? from jsonb_to_recordset(?::jsonb) as x("employee_id" text, "pay_period_id" text)
       join "time"."timesheets" t on t."pay_period_id" = x."pay_period_id" and t."employee_id" = x."employee_id"
       where t."status" <> 'locked' order by t."id"
       on conflict ("timesheet_id") do update set "seq" = nextval('"time"."timesheet_mark_seq"'), "marked_at" = excluded."marked_at"`,
      [now, JSON.stringify(raced)],
    );
  }
}

/** Marks timesheets by id for recalculation (rules changed, a held punch applied). */
export async function markTimesheetIds(em: EntityManager, ids: string[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await sqlQuery(em, 
    `insert into "time"."timesheet_marks" ("timesheet_id", "marked_at") select x, ? from unnest(?::text[]) as x order by x
     on conflict ("timesheet_id") do update set "seq" = nextval('"time"."timesheet_mark_seq"'), "marked_at" = excluded."marked_at"`,
    [now, sqlList([...new Set(ids)])],
  );
}
