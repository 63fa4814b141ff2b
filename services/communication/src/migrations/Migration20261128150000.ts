import { Migration } from '@bop/shared';

/** communication: recognitions (shout-outs) and the latest display metric per location and name. */
export class Migration20261128150000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "communication"."recognitions" (
      "id" varchar(40) primary key,
      "employee_id" varchar(40) not null,
      "employee_name" text not null,
      "location_id" varchar(40) not null,
      "message" text not null,
      "badge" text null,
      "given_by" jsonb not null,
      "created_at" timestamptz not null
    )`);
    this.addSql(`create index "recognitions_location_idx" on "communication"."recognitions" ("location_id", "id")`);
    this.addSql(`create index "recognitions_employee_idx" on "communication"."recognitions" ("employee_id", "id")`);

    this.addSql(`create table "communication"."display_metrics" (
      "id" varchar(40) primary key,
      "location_id" varchar(40) not null,
      "name" varchar(64) not null,
      "value" numeric not null,
      "unit" text null,
      "label" text null,
      "measured_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "source" varchar(64) null
    )`);
    this.addSql(`create unique index "display_metrics_uq" on "communication"."display_metrics" ("location_id", "name")`);
  }
}
