import { Migration } from '@bop/shared';

export class Migration20261121120000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "integrations"."integrations" (
      "id" varchar(40) primary key,
      "name" varchar(100) not null,
      "description" varchar(2000) not null,
      "status" varchar(20) not null default 'active' check ("status" in ('active','paused')),
      "manifest" jsonb not null,
      "config" jsonb not null default '{}',
      "heartbeat_interval_seconds" integer not null,
      "reported_health" varchar(20) null check ("reported_health" in ('ok','warning','error')),
      "health_message" varchar(1000) null,
      "last_heartbeat_at" timestamptz null,
      "has_webhook_secret" boolean not null default false,
      "paused_at" timestamptz null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create index "integrations_status_idx" on "integrations"."integrations" ("status", "id")`);
    this.addSql(`create table "integrations"."integration_keys" (
      "id" varchar(40) primary key,
      "integration_id" varchar(40) not null references "integrations"."integrations" ("id") on delete cascade,
      "prefix" varchar(40) not null,
      "scopes" jsonb not null,
      "created_at" timestamptz not null,
      "expires_at" timestamptz null,
      "revoked_at" timestamptz null
    )`);
    this.addSql(`create index "integration_keys_integration_idx" on "integrations"."integration_keys" ("integration_id", "id")`);
    this.addSql(`create table "integrations"."integration_logs" (
      "id" varchar(40) primary key,
      "integration_id" varchar(40) not null references "integrations"."integrations" ("id") on delete cascade,
      "level" varchar(10) not null check ("level" in ('debug','info','warning','error')),
      "level_rank" smallint not null,
      "message" text not null,
      "context" jsonb null,
      "created_at" timestamptz not null
    )`);
    this.addSql(`create index "integration_logs_integration_idx" on "integrations"."integration_logs" ("integration_id", "id")`);
    this.addSql(`create index "integration_logs_created_idx" on "integrations"."integration_logs" ("integration_id", "created_at")`);
    this.addSql(`create table "integrations"."ingestion_batches" (
      "id" varchar(64) primary key,
      "integration_id" varchar(40) not null references "integrations"."integrations" ("id") on delete cascade,
      "source" varchar(200) not null,
      "endpoint" varchar(200) not null,
      "received" integer not null,
      "created" integer not null,
      "updated" integer not null,
      "unchanged" integer not null,
      "duplicate" integer not null,
      "rejected" integer not null,
      "rejected_records" jsonb not null default '[]',
      "created_at" timestamptz not null,
      "event_id" varchar(40) not null
    )`);
    this.addSql(`create index "ingestion_batches_integration_idx" on "integrations"."ingestion_batches" ("integration_id", "id")`);
    this.addSql(`create index "ingestion_batches_rejected_idx" on "integrations"."ingestion_batches" ("integration_id", "id") where "rejected" > 0`);
  }
}
