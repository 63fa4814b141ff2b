import { Migration } from '@bop/shared';

/**
 * insights: alert rules (a KPI, a scope, a comparison, a window), the locations each watches, the
 * state of each (rule, location) — firing or not, and when its window rolls over — the pairs marked
 * for evaluation by the read models' consumers, and each firing.
 */
export class Migration20261202500000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "insights"."alert_rules" (
      "id" varchar(64) primary key,
      "name" varchar(120) not null,
      "kpi" varchar(40) not null,
      "scope_location_ids" jsonb null,
      "org_unit_id" varchar(64) null,
      "evaluate" varchar(20) not null,
      "operator" varchar(10) not null,
      "threshold" varchar(24) not null,
      "against" varchar(30) not null,
      "window_kind" varchar(20) not null,
      "window_days" integer null,
      "status" varchar(20) not null,
      "version" integer not null,
      "created_by" jsonb not null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "archived_at" timestamptz null
    )`);
    this.addSql(`create table "insights"."alert_rule_locations" (
      "rule_id" varchar(64) not null,
      "location_id" varchar(64) not null,
      "kpi" varchar(40) not null,
      "location_key" varchar(64) not null,
      "active" boolean not null,
      primary key ("rule_id", "location_id")
    )`);
    // the consumers' look-up: the active rules watching a location's KPI
    this.addSql(`create index "alert_rule_locations_location_kpi_idx" on "insights"."alert_rule_locations" ("location_id", "kpi") where "active"`);
    this.addSql(`create table "insights"."alert_states" (
      "rule_id" varchar(64) not null,
      "location_key" varchar(64) not null,
      "firing" boolean not null,
      "since" timestamptz null,
      "window_from" date null,
      "window_to" date null,
      "rolls_over_at" timestamptz null,
      "evaluated_at" timestamptz not null,
      primary key ("rule_id", "location_key")
    )`);
    this.addSql(`create index "alert_states_rolls_over_at_idx" on "insights"."alert_states" ("rolls_over_at")`);
    this.addSql(`create table "insights"."alert_dirty" (
      "rule_id" varchar(64) not null,
      "location_key" varchar(64) not null,
      "marked_at" timestamptz not null,
      primary key ("rule_id", "location_key")
    )`);
    this.addSql(`create index "alert_dirty_marked_at_idx" on "insights"."alert_dirty" ("marked_at")`);
    this.addSql(`create table "insights"."alerts" (
      "id" varchar(64) primary key,
      "rule_id" varchar(64) not null,
      "rule_name" varchar(120) not null,
      "kpi" varchar(40) not null,
      "location_id" varchar(64) null,
      "location_ids" jsonb not null,
      "operator" varchar(10) not null,
      "against" varchar(30) not null,
      "value" varchar(40) not null,
      "threshold" varchar(24) not null,
      "kpi_value" varchar(40) not null,
      "base_value" varchar(40) null,
      "window_from" date not null,
      "window_to" date not null,
      "triggered_at" timestamptz not null
    )`);
    this.addSql(`create index "alerts_rule_idx" on "insights"."alerts" ("rule_id", "id")`);
    this.addSql(`create index "alerts_location_idx" on "insights"."alerts" ("location_id", "id")`);
  }
}
