import { Migration } from '@bop/shared';

/**
 * operations: forms (current definition, and each version as it was), form submissions (final; the
 * version answered, per-question results, scores) and corrective actions (supplement: `open` →
 * `in_progress` → `closed`), opened by hand or by failed answers.
 */
export class Migration20261127123000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "operations"."forms" (
      "id" varchar(40) primary key,
      "external_id" varchar(200) null,
      "name" varchar(200) not null,
      "description" text null,
      "kind" varchar(20) not null check ("kind" in ('checklist','audit','inspection')),
      "scored" boolean not null,
      "pass_mark" numeric null check ("pass_mark" between 0 and 100),
      "location_ids" text[] not null default '{}',
      "sections" jsonb not null,
      "question_count" integer not null,
      "status" varchar(20) not null check ("status" in ('active','archived')),
      "archived_at" timestamptz null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "actor" jsonb not null,
      check ("kind" <> 'audit' or "scored"),
      check (("status" = 'archived') = ("archived_at" is not null))
    )`);
    this.addSql(`create unique index "forms_external_id_uq" on "operations"."forms" ("external_id") where "external_id" is not null`);
    this.addSql(`create index "forms_location_ids_idx" on "operations"."forms" using gin ("location_ids")`);
    this.addSql(`create index "forms_updated_at_idx" on "operations"."forms" ("updated_at")`);
    this.addSql(`create table "operations"."form_versions" (
      "form_id" varchar(40) not null references "operations"."forms" ("id"),
      "version" integer not null,
      "snapshot" jsonb not null,
      "created_at" timestamptz not null,
      primary key ("form_id", "version")
    )`);
    this.addSql(`create table "operations"."form_submissions" (
      "id" varchar(40) primary key,
      "external_id" varchar(200) null,
      "form_id" varchar(40) not null references "operations"."forms" ("id"),
      "form_name" varchar(200) not null,
      "form_kind" varchar(20) not null,
      "form_version" integer not null,
      "location_id" varchar(40) not null,
      "started_at" timestamptz null,
      "completed_at" timestamptz not null,
      "completed_by_employee_id" varchar(64) null,
      "submitted_by" jsonb not null,
      "note" text null,
      "scored" boolean not null,
      "score" numeric null,
      "points" numeric null,
      "max_points" numeric null,
      "pass_mark" numeric null,
      "passed" boolean not null,
      "failed_count" integer not null,
      "critical_failed" boolean not null,
      "section_scores" jsonb not null,
      "results" jsonb not null,
      "corrective_action_ids" text[] not null default '{}',
      "content_hash" varchar(64) not null,
      "created_at" timestamptz not null,
      foreign key ("form_id", "form_version") references "operations"."form_versions" ("form_id", "version")
    )`);
    this.addSql(`create unique index "form_submissions_external_id_uq" on "operations"."form_submissions" ("external_id") where "external_id" is not null`);
    this.addSql(`create index "form_submissions_location_idx" on "operations"."form_submissions" ("location_id", "id")`);
    this.addSql(`create index "form_submissions_form_idx" on "operations"."form_submissions" ("form_id", "id")`);
    this.addSql(`create index "form_submissions_kind_idx" on "operations"."form_submissions" ("form_kind", "id")`);
    this.addSql(`create index "form_submissions_completed_idx" on "operations"."form_submissions" ("completed_at")`);
    this.addSql(`create table "operations"."corrective_actions" (
      "id" varchar(40) primary key,
      "location_id" varchar(40) not null,
      "title" varchar(200) not null,
      "description" text null,
      "status" varchar(20) not null check ("status" in ('open','in_progress','closed')),
      "priority" varchar(10) not null check ("priority" in ('low','medium','high','urgent')),
      "assignee_id" varchar(64) null,
      "due_at" timestamptz null,
      "source" varchar(20) not null check ("source" in ('manual','form_submission')),
      "submission_id" varchar(40) null,
      "form_id" varchar(40) null,
      "question_id" varchar(64) null,
      "failure_reason" text null,
      "resolution" text null,
      "resolution_attachment_ids" text[] not null default '{}',
      "started_at" timestamptz null,
      "closed_at" timestamptz null,
      "closed_by" jsonb null,
      "created_by" jsonb not null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      check (("status" = 'closed') = ("closed_at" is not null and "resolution" is not null))
    )`);
    // a failed answer opens at most one corrective action
    this.addSql(`create unique index "corrective_actions_answer_uq" on "operations"."corrective_actions" ("submission_id", "question_id") where "source" = 'form_submission'`);
    this.addSql(`create index "corrective_actions_location_idx" on "operations"."corrective_actions" ("location_id", "status")`);
    this.addSql(`create index "corrective_actions_open_due_idx" on "operations"."corrective_actions" ("due_at") where "status" <> 'closed'`);
    this.addSql(`create index "corrective_actions_submission_idx" on "operations"."corrective_actions" ("submission_id") where "submission_id" is not null`);
  }
}
