import { Migration } from '@bop/shared';

/**
 * scheduling: a stored forecast whose fit keeps failing (an unexpected error) is retried later with
 * backoff instead of stalling the fit worker: its consecutive failures, the last one's time and when it
 * is due again. Existing rows keep their data (no failures).
 */
export class Migration20261201090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "scheduling"."forecast_fits"
      add column "failures" integer not null default 0,
      add column "failed_at" timestamptz null,
      add column "retry_at" timestamptz null`);
  }
}
