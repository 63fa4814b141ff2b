import { Migration } from '@bop/shared';

export class Migration20261122000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "gateway"."idempotency_keys" (
      "scope" varchar(300) not null,
      "key" varchar(255) not null,
      "method" varchar(10) not null,
      "path" text not null,
      "body_hash" char(64) not null,
      "state" varchar(20) not null check ("state" in ('in_progress','completed')),
      "status" integer null,
      "headers" jsonb null,
      "body" bytea null,
      "created_at" timestamptz not null,
      "expires_at" timestamptz not null,
      primary key ("scope", "key")
    )`);
    this.addSql(`create index "idempotency_keys_expires_idx" on "gateway"."idempotency_keys" ("expires_at")`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "gateway"."idempotency_keys"`);
  }
}
