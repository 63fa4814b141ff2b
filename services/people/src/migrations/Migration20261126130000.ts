import { Migration } from '@bop/shared';

/** people: employee documents (an uploaded attachment with a type, expiry and whether the employee sees it) and certifications. */
export class Migration20261126130000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "people"."employee_documents" (
      "id" varchar(40) primary key,
      "employee_id" varchar(40) not null references "people"."employees" ("id"),
      "attachment_id" varchar(40) not null,
      "type" varchar(40) not null,
      "title" varchar(200) not null,
      "expires_on" date null,
      "visible_to_employee" boolean not null default false,
      "status" varchar(10) not null default 'active' check ("status" in ('active','archived')),
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create index "employee_documents_employee_idx" on "people"."employee_documents" ("employee_id", "id")`);
    this.addSql(`create index "employee_documents_expiry_idx" on "people"."employee_documents" ("expires_on") where "expires_on" is not null`);
    this.addSql(`create table "people"."certifications" (
      "id" varchar(40) primary key,
      "employee_id" varchar(40) not null references "people"."employees" ("id"),
      "name" varchar(120) not null,
      "issuer" varchar(200) null,
      "issued_on" date not null,
      "expires_on" date null,
      "attachment_id" varchar(40) null,
      "status" varchar(10) not null default 'active' check ("status" in ('active','archived')),
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      check ("expires_on" is null or "expires_on" >= "issued_on")
    )`);
    this.addSql(`create index "certifications_employee_idx" on "people"."certifications" ("employee_id", "id")`);
    this.addSql(`create index "certifications_expiry_idx" on "people"."certifications" ("expires_on") where "expires_on" is not null`);
  }
}
