import { Migration } from '@bop/shared';

/**
 * communication: schedule publications whose shifts the replica has not heard of yet (on Kafka a
 * `schedule.published` may overtake its drafts' `shift.changed`), so that the replica marks those
 * shifts published and the notifications are made once the last of them arrives.
 */
export class Migration20261203400000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "communication"."published_shifts" (
      "shift_id" varchar(40) primary key,
      "published_at" timestamptz not null
    )`);
    this.addSql(`create table "communication"."schedule_notices" (
      "event_id" varchar(40) primary key,
      "location_id" varchar(40) not null,
      "from_date" varchar(10) not null,
      "to_date" varchar(10) not null,
      "shift_ids" text[] not null,
      "waiting_shift_ids" text[] not null,
      "received_at" timestamptz not null
    )`);
    this.addSql(`create index "schedule_notices_waiting_gin" on "communication"."schedule_notices" using gin ("waiting_shift_ids")`);
  }
}
