import { Migration } from '@bop/shared';

/** time: employees' requests to fix a missed or wrong punch (supplement: Punch correction states). */
export class Migration20261127093000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "time"."punch_corrections" (
      "id" varchar(40) primary key,
      "employee_id" varchar(40) not null,
      "punch_id" varchar(40) null,
      "location_id" varchar(40) not null,
      "type" varchar(12) not null check ("type" in ('clock_in','clock_out','break_start','break_end')),
      "occurred_at" timestamptz not null,
      "current" jsonb null,
      "reason" text not null,
      "status" varchar(10) not null check ("status" in ('pending','approved','rejected','cancelled')),
      "applied_punch_id" varchar(40) null,
      "decided_at" timestamptz null,
      "decided_by" jsonb null,
      "rejection_reason" text null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create index "punch_corrections_employee_idx" on "time"."punch_corrections" ("employee_id")`);
    this.addSql(`create index "punch_corrections_status_location_idx" on "time"."punch_corrections" ("status", "location_id")`);
  }
}
