import { Migration, outboxTableSql } from '@bop/shared';

/**
 * Identity's first schema: people, roles, credentials, switches and company settings.
 * Foreign keys are checked at commit, since the entities declare no relations for the ORM to order inserts by.
 */
export class Migration20261121060000 extends Migration {
  override async up(): Promise<void> {
    const s = '"identity"';
    const statements = [
      `create table ${s}."users" (
        "id" varchar(40) primary key,
        "email" varchar(254) not null,
        "name" varchar(200) null,
        "locale" varchar(35) not null default 'en',
        "status" varchar(20) not null default 'active' check ("status" in ('active', 'deactivated')),
        "password_hash" text null,
        "employee_id" varchar(64) null,
        "totp_secret" varchar(128) null,
        "totp_pending_secret" varchar(128) null,
        "totp_last_step" integer null,
        "mfa_enrolled_at" timestamptz null,
        "last_sign_in_at" timestamptz null,
        "deactivated_at" timestamptz null,
        "created_at" timestamptz not null,
        "updated_at" timestamptz not null,
        "version" integer not null default 1
      )`,
      `create unique index "users_email_uq" on ${s}."users" ("email")`,
      `create unique index "users_employee_uq" on ${s}."users" ("employee_id") where "employee_id" is not null`,

      `create table ${s}."roles" (
        "id" varchar(40) primary key,
        "key" varchar(40) null unique,
        "name" varchar(100) not null,
        "description" text null,
        "permissions" jsonb not null default '[]',
        "built_in" boolean not null default false,
        "status" varchar(20) not null default 'active' check ("status" in ('active', 'archived')),
        "created_at" timestamptz not null,
        "updated_at" timestamptz not null,
        "version" integer not null default 1
      )`,
      `create unique index "roles_active_name_uq" on ${s}."roles" (lower("name")) where "status" = 'active'`,

      `create table ${s}."assignments" (
        "id" varchar(40) primary key,
        "user_id" varchar(40) not null references ${s}."users" ("id") deferrable initially deferred,
        "role_id" varchar(40) not null references ${s}."roles" ("id") deferrable initially deferred,
        "reach" jsonb not null,
        "created_at" timestamptz not null
      )`,
      `create index "assignments_user_idx" on ${s}."assignments" ("user_id")`,
      `create index "assignments_role_idx" on ${s}."assignments" ("role_id")`,

      `create table ${s}."sessions" (
        "id" varchar(40) primary key,
        "user_id" varchar(40) not null references ${s}."users" ("id") deferrable initially deferred,
        "token_hash" char(64) not null unique,
        "created_at" timestamptz not null,
        "last_seen_at" timestamptz not null,
        "expires_at" timestamptz not null,
        "ended_at" timestamptz null,
        "end_reason" varchar(40) null,
        "ip" varchar(64) null
      )`,
      `create index "sessions_open_user_idx" on ${s}."sessions" ("user_id") where "ended_at" is null`,

      `create table ${s}."api_keys" (
        "id" varchar(40) primary key,
        "kind" varchar(20) not null check ("kind" in ('personal', 'integration')),
        "user_id" varchar(40) null references ${s}."users" ("id") deferrable initially deferred,
        "integration_id" varchar(64) null,
        "name" varchar(100) not null,
        "prefix" varchar(20) not null,
        "key_hash" char(64) not null unique,
        "scopes" jsonb null,
        "created_at" timestamptz not null,
        "expires_at" timestamptz null,
        "last_used_at" timestamptz null,
        "revoked_at" timestamptz null,
        check (("kind" = 'personal' and "user_id" is not null) or ("kind" = 'integration' and "integration_id" is not null))
      )`,
      `create index "api_keys_user_idx" on ${s}."api_keys" ("user_id") where "user_id" is not null`,
      `create index "api_keys_integration_idx" on ${s}."api_keys" ("integration_id") where "integration_id" is not null`,

      `create table ${s}."integration_states" (
        "integration_id" varchar(64) primary key,
        "paused" boolean not null,
        "updated_at" timestamptz not null
      )`,

      `create table ${s}."mfa_challenges" (
        "id" varchar(40) primary key,
        "user_id" varchar(40) not null references ${s}."users" ("id") deferrable initially deferred,
        "token_hash" char(64) not null unique,
        "attempts" integer not null default 0,
        "expires_at" timestamptz not null,
        "used_at" timestamptz null,
        "ip" varchar(64) null,
        "created_at" timestamptz not null
      )`,

      `create table ${s}."mfa_recovery_codes" (
        "id" varchar(40) primary key,
        "user_id" varchar(40) not null references ${s}."users" ("id") deferrable initially deferred,
        "code_hash" char(64) not null,
        "used_at" timestamptz null,
        "created_at" timestamptz not null
      )`,
      `create index "mfa_recovery_codes_user_idx" on ${s}."mfa_recovery_codes" ("user_id")`,

      `create table ${s}."invitations" (
        "id" varchar(40) primary key,
        "email" varchar(254) not null,
        "name" varchar(200) null,
        "assignments" jsonb not null,
        "employee_id" varchar(64) null,
        "status" varchar(20) not null check ("status" in ('pending', 'accepted', 'revoked')),
        "token_hash" char(64) not null unique,
        "expires_at" timestamptz not null,
        "invited_by" varchar(64) null,
        "accepted_user_id" varchar(40) null,
        "created_at" timestamptz not null,
        "updated_at" timestamptz not null
      )`,
      `create index "invitations_email_idx" on ${s}."invitations" ("email")`,

      `create table ${s}."email_log" (
        "id" varchar(40) primary key,
        "to_address" varchar(254) not null,
        "subject" varchar(300) not null,
        "body" text not null,
        "created_at" timestamptz not null
      )`,

      `create table ${s}."feature_switches" (
        "key" varchar(100) primary key,
        "enabled" boolean not null,
        "updated_at" timestamptz not null
      )`,

      `create table ${s}."company_settings" (
        "id" integer primary key check ("id" = 1),
        "name" varchar(200) not null,
        "default_currency" char(3) not null,
        "week_start" varchar(10) not null,
        "pay_period_frequency" varchar(12) not null,
        "pay_period_anchor_date" date not null,
        "purchase_order_approval_threshold" numeric not null check ("purchase_order_approval_threshold" >= 0),
        "require_two_factor" boolean not null default false,
        "version" integer not null default 1,
        "updated_at" timestamptz not null
      )`,
      `insert into ${s}."company_settings" values (1, 'My company', 'USD', 'monday', 'biweekly', '2026-01-05', '1000.00', false, 1, now())`,

      ...outboxTableSql('identity'),
    ];
    for (const sql of statements) this.addSql(sql);
  }
}
