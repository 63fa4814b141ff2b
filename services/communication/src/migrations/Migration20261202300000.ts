import { Migration } from '@bop/shared';

/** communication: display screens (paired to a location, their layout and the hash of their screen token) and the pairing codes screens show. */
export class Migration20261202300000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "communication"."display_pairings" (
      "id" varchar(40) primary key,
      "code_hash" varchar(64) not null,
      "secret_hash" varchar(64) not null,
      "expires_at" timestamptz not null,
      "screen_id" varchar(40) null,
      "claimed_at" timestamptz null,
      "created_at" timestamptz not null
    )`);
    this.addSql(`create unique index "display_pairings_code_uq" on "communication"."display_pairings" ("code_hash")`);
    this.addSql(`create unique index "display_pairings_secret_uq" on "communication"."display_pairings" ("secret_hash")`);
    this.addSql(`create index "display_pairings_expiry_idx" on "communication"."display_pairings" ("expires_at")`);

    this.addSql(`create table "communication"."display_screens" (
      "id" varchar(40) primary key,
      "name" text null,
      "location_id" varchar(40) not null,
      "status" varchar(16) not null,
      "config" jsonb not null,
      "token_hash" varchar(64) null,
      "token_issued_at" timestamptz null,
      "paired_at" timestamptz not null,
      "paired_by" jsonb not null,
      "last_seen_at" timestamptz null,
      "archived_at" timestamptz null,
      "version" int not null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create index "display_screens_location_idx" on "communication"."display_screens" ("location_id", "id")`);
    this.addSql(`create unique index "display_screens_token_uq" on "communication"."display_screens" ("token_hash")`);
  }
}
