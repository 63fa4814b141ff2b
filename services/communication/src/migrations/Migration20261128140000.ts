import { Migration } from '@bop/shared';

/** communication: announcements and their recipients (the audience fixed at publication, with acknowledgements and reminders). */
export class Migration20261128140000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "communication"."announcements" (
      "id" varchar(40) primary key,
      "title" text not null,
      "body" text not null,
      "status" varchar(10) not null check ("status" in ('draft','scheduled','published','archived')),
      "audience" jsonb not null,
      "location_ids" text[] not null,
      "attachment_ids" text[] not null,
      "acknowledgement_required" boolean not null,
      "acknowledge_by" timestamptz null,
      "publish_at" timestamptz null,
      "published_at" timestamptz null,
      "published_by" jsonb null,
      "archived_at" timestamptz null,
      "audience_count" integer null,
      "acknowledged_count" integer not null default 0,
      "reminded_at" timestamptz null,
      "author_told_at" timestamptz null,
      "created_by" jsonb not null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      check ("acknowledge_by" is null or "acknowledgement_required")
    )`);
    this.addSql(`create index "announcements_location_ids_idx" on "communication"."announcements" using gin ("location_ids")`);
    // the worker's two questions: scheduled ones come due, published deadlines passed and not yet reminded
    this.addSql(`create index "announcements_scheduled_idx" on "communication"."announcements" ("publish_at") where "status" = 'scheduled'`);
    this.addSql(`create index "announcements_deadline_idx" on "communication"."announcements" ("acknowledge_by") where "status" = 'published' and "acknowledge_by" is not null and "reminded_at" is null`);

    this.addSql(`create table "communication"."announcement_recipients" (
      "id" varchar(40) primary key,
      "announcement_id" varchar(40) not null references "communication"."announcements" ("id"),
      "employee_id" varchar(40) not null,
      "hidden" boolean not null default false,
      "acknowledged_at" timestamptz null,
      "acknowledged_by" jsonb null,
      "reminded_at" timestamptz null
    )`);
    this.addSql(`create unique index "announcement_recipients_uq" on "communication"."announcement_recipients" ("announcement_id", "employee_id")`);
    // /me/announcements: a person's, newest first
    this.addSql(`create index "announcement_recipients_employee_idx" on "communication"."announcement_recipients" ("employee_id", "id")`);
  }
}
