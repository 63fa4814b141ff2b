import { Migration } from '@bop/shared';

/**
 * communication: notifications (one per event, person and kind), each person's preferences, the
 * deliveries on external channels (held outside the person's shifts until the next one starts), and
 * people's contact details (email, phone) from their events.
 */
export class Migration20261202200000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "communication"."notifications" (
      "id" varchar(40) primary key,
      "employee_id" varchar(40) not null,
      "kind" varchar(40) not null check ("kind" in ('schedule_published','shift_offered','swap_requested','swap_decided','time_off_decided','corrective_action_assigned','work_order_assigned','announcement_published','announcement_reminder')),
      "event_id" varchar(40) not null,
      "title" text not null,
      "body" text not null,
      "subject_type" varchar(40) not null,
      "subject_id" varchar(64) not null,
      "location_id" varchar(40) null,
      "urgent" boolean not null,
      "in_app" boolean not null,
      "read_at" timestamptz null,
      "created_at" timestamptz not null
    )`);
    // one event notifies a person at most once per kind, even delivered twice
    this.addSql(`create unique index "notifications_event_uq" on "communication"."notifications" ("event_id", "employee_id", "kind")`);
    // /me/notifications: a person's in-app ones, newest first (and the unread ones)
    this.addSql(`create index "notifications_employee_idx" on "communication"."notifications" ("employee_id", "id") where "in_app"`);
    this.addSql(`create index "notifications_unread_idx" on "communication"."notifications" ("employee_id", "id") where "in_app" and "read_at" is null`);

    this.addSql(`create table "communication"."notification_preferences" (
      "employee_id" varchar(40) primary key,
      "kinds" jsonb not null,
      "updated_at" timestamptz not null
    )`);

    this.addSql(`create table "communication"."notification_deliveries" (
      "id" varchar(40) primary key,
      "notification_id" varchar(40) not null references "communication"."notifications" ("id"),
      "employee_id" varchar(40) not null,
      "channel" varchar(10) not null check ("channel" in ('email','sms','push')),
      "status" varchar(10) not null check ("status" in ('held','requested','skipped')),
      "due_at" timestamptz null,
      "requested_at" timestamptz null,
      "reason" text null,
      "created_at" timestamptz not null
    )`);
    this.addSql(`create unique index "notification_deliveries_uq" on "communication"."notification_deliveries" ("notification_id", "channel")`);
    // the delivery worker: held ones coming due
    this.addSql(`create index "notification_deliveries_held_idx" on "communication"."notification_deliveries" ("due_at") where "status" = 'held'`);

    this.addSql(`create table "communication"."employee_contacts" (
      "employee_id" varchar(40) primary key,
      "email" text null,
      "phone" text null,
      "version" integer not null,
      "updated_at" timestamptz not null
    )`);
    // the next shift of a person (quiet hours)
    this.addSql(`create index "shifts_employee_idx" on "communication"."shifts" ("employee_id", "start_at") where "status" = 'published' and "employee_id" is not null`);
  }
}
