import { Migration } from '@bop/shared';

/**
 * time: the log of timesheets touched by changes not yet marked — one row per change (a batch of
 * punches), holding its (employee, pay period) pairs. A change appends one row instead of taking a
 * mark per timesheet; the recalculation folds the log into `timesheet_marks` before each pass.
 */
export class Migration20261128090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "time"."timesheet_touches" (
      "seq" bigserial primary key,
      "employee_ids" text[] not null,
      "pay_period_ids" text[] not null,
      "touched_at" timestamptz not null,
      check (cardinality("employee_ids") = cardinality("pay_period_ids"))
    )`);
  }
}
