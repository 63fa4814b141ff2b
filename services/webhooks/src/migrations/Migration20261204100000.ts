import { Migration } from '@bop/shared';

/**
 * Replays by time range (`POST /webhook-endpoints/{id}:replay`): a replay row keeps its range, the
 * types it resolved to, its bound in the log (the sequencer's last round when it was asked for) and
 * its position (the last (visible_round, arrival) it queued), so its worker queues bounded batches and
 * resumes after a crash. At most one queued or running replay per endpoint (the partial unique index).
 * A delivery names the replay that queued it; a logged event keeps the bus key its deliveries queue by
 * (null for rows logged before: a replay queues those by their object id).
 */
export class Migration20261204100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhooks"."deliveries" add column if not exists "replay_id" varchar(40) null`);
    this.addSql(`alter table "webhooks"."event_log" add column if not exists "record_key" text null`);
    this.addSql(`create table if not exists "webhooks"."replays" (
      "id" varchar(40) primary key,
      "endpoint_id" varchar(40) not null references "webhooks"."endpoints" ("id") on delete cascade,
      "from_at" timestamptz not null,
      "to_at" timestamptz not null,
      "requested_types" jsonb null,
      "types" jsonb not null,
      "status" varchar(20) not null check ("status" in ('queued','running','completed','failed')),
      "bound_round" bigint not null,
      "position_round" bigint null,
      "position_arrival" bigint null,
      "matched" integer not null,
      "queued" integer not null default 0,
      "error" varchar(1000) null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "completed_at" timestamptz null
    )`);
    this.addSql(`create unique index if not exists "replays_active_uq" on "webhooks"."replays" ("endpoint_id") where "status" in ('queued','running')`);
    this.addSql(`create index if not exists "replays_endpoint_idx" on "webhooks"."replays" ("endpoint_id", "id")`);
  }
}
