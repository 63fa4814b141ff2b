import { Migration } from '@bop/shared';

/**
 * scheduling: shift swaps (supplement: Shift swap states), at most one pending swap per shift; and the
 * flags a shift carries from other areas' changes (approved time off on its day).
 */
export class Migration20261129110000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "scheduling"."shift_swaps" (
      "id" varchar(40) primary key,
      "shift_id" varchar(40) not null references "scheduling"."shifts" ("id"),
      "location_id" varchar(40) not null,
      "from_employee_id" varchar(40) not null,
      "to_employee_id" varchar(40) not null,
      "note" varchar(500) null,
      "status" varchar(10) not null check ("status" in ('pending','approved','rejected','cancelled','expired')),
      "requested_by" jsonb not null,
      "decided_at" timestamptz null,
      "decided_by" jsonb null,
      "rejection_reason" varchar(500) null,
      "version" integer not null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create unique index "shift_swaps_pending_uq" on "scheduling"."shift_swaps" ("shift_id") where "status" = 'pending'`);
    this.addSql(`create index "shift_swaps_pending_idx" on "scheduling"."shift_swaps" ("created_at") where "status" = 'pending'`);
    this.addSql(`create index "shift_swaps_from_idx" on "scheduling"."shift_swaps" ("from_employee_id")`);
    this.addSql(`create index "shift_swaps_to_idx" on "scheduling"."shift_swaps" ("to_employee_id")`);
    this.addSql(`alter table "scheduling"."shifts" add column "flags" jsonb not null default '[]' check (jsonb_typeof("flags") = 'array')`);
  }
}
