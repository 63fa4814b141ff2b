import { Migration } from '@bop/shared';

/**
 * operations: sensors (configuration plus the alarm state the ingestion keeps under the sensor's row
 * lock), the alarms they raised (one row per excursion that lasted its delay), and the readings —
 * range-partitioned by month of `read_at` (a default partition takes what no month holds). Months
 * around the migration are created here; the partition worker creates the months ahead and drops
 * those past OPERATIONS_SENSOR_READING_RETENTION_DAYS.
 */
export class Migration20261127122000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "operations"."sensors" (
      "id" varchar(40) primary key,
      "external_id" varchar(200) null,
      "name" varchar(200) not null,
      "kind" varchar(20) not null check ("kind" in ('temperature','humidity','other')),
      "unit" varchar(20) not null,
      "min" numeric(18,6) null,
      "max" numeric(18,6) null,
      "alarm_delay_minutes" integer not null check ("alarm_delay_minutes" between 0 and 10080),
      "location_id" varchar(40) not null,
      "asset_id" varchar(64) null,
      "status" varchar(10) not null check ("status" in ('active','archived')),
      "archived_at" timestamptz null,
      "last_read_at" timestamptz null,
      "last_value" numeric(18,6) null,
      "run_started_at" timestamptz null,
      "alarm_id" varchar(40) null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "actor" jsonb not null,
      check ("min" is null or "max" is null or "min" <= "max")
    )`);
    this.addSql(`create unique index "sensors_external_id_uq" on "operations"."sensors" ("external_id") where "external_id" is not null`);
    this.addSql(`create index "sensors_location_idx" on "operations"."sensors" ("location_id")`);
    this.addSql(`create index "sensors_asset_idx" on "operations"."sensors" ("asset_id") where "asset_id" is not null`);
    // the alarm worker's candidates: out of range, no alarm yet
    this.addSql(`create index "sensors_pending_alarm_idx" on "operations"."sensors" ("run_started_at") where "run_started_at" is not null and "alarm_id" is null and "status" = 'active'`);

    this.addSql(`create table "operations"."sensor_alarms" (
      "id" varchar(40) primary key,
      "sensor_id" varchar(40) not null references "operations"."sensors" ("id"),
      "location_id" varchar(40) not null,
      "started_at" timestamptz not null,
      "raised_at" timestamptz not null,
      "raised_value" numeric(18,6) not null,
      "raised_by" varchar(10) not null check ("raised_by" in ('reading','clock')),
      "ended_at" timestamptz null,
      "ended_value" numeric(18,6) null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create index "sensor_alarms_sensor_idx" on "operations"."sensor_alarms" ("sensor_id", "started_at")`);

    // no surrogate id: a reading is its (sensor, time); the key leads with the sensor for its newest-first reads
    this.addSql(`create table "operations"."sensor_readings" (
      "sensor_id" varchar(40) not null,
      "read_at" timestamptz not null,
      "value" numeric(18,6) not null,
      "source" varchar(100) not null,
      "received_at" timestamptz not null,
      -- set when a re-sent reading changed its value (null: as first received); RETURNING cannot read xmax of a partitioned table
      "changed_at" timestamptz null,
      primary key ("sensor_id", "read_at")
    ) partition by range ("read_at")`);
    this.addSql(`create table "operations"."sensor_readings_default" partition of "operations"."sensor_readings" default`);
    this.addSql(`do $$
      declare m date;
      begin
        for k in -1..3 loop
          m := (date_trunc('month', now() at time zone 'UTC') + make_interval(months => k))::date;
          execute format('create table if not exists "operations".%I partition of "operations"."sensor_readings" for values from (%L) to (%L)',
            'sensor_readings_p' || to_char(m, 'YYYYMM'), m::text || ' 00:00:00+00', (m + interval '1 month')::date::text || ' 00:00:00+00');
        end loop;
      end $$`);
  }
}
