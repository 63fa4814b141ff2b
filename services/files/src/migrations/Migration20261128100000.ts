import { Migration } from '@bop/shared';

/**
 * files: an upload's intent, written before its bytes are stored and deleted with the record that
 * names them. One left behind (the process died between storing and recording) marks bytes nothing
 * names: the upload sweeper removes them once the intent is older than any upload takes.
 */
export class Migration20261128100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "files"."upload_intents" (
      "id" varchar(40) primary key,
      "storage_key" varchar(512) not null,
      "started_at" timestamptz not null
    )`);
    this.addSql(`create index "upload_intents_started_idx" on "files"."upload_intents" ("started_at")`);
  }
}
