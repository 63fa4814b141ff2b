import { jsonPayloadSql } from './bus/postgres';

/**
 * Tables the kit owns in every service schema, created idempotently on each start before the
 * service's own migrations: the outbox (with a NOTIFY that wakes the relay), the consumers'
 * processed events, and dead letters.
 */
export function kitTablesSql(schema: string): string[] {
  const q = (t: string) => `"${schema}"."${t}"`;
  return [
    ...outboxTableSql(schema),
    `create or replace function ${q('outbox_notify')}() returns trigger language plpgsql as $$
     begin perform pg_notify('outbox_${schema}', ''); return null; end $$`,
    `drop trigger if exists "outbox_notify" on ${q('outbox')}`,
    `create trigger "outbox_notify" after insert on ${q('outbox')} for each statement execute function ${q('outbox_notify')}()`,
    `create table if not exists ${q('processed_events')} (
      "consumer" varchar(120) not null,
      "event_id" varchar(40) not null,
      "processed_at" timestamptz not null default now(),
      primary key ("consumer", "event_id")
    )`,
    `create table if not exists ${q('dead_letters')} (
      "id" bigserial primary key,
      "consumer" varchar(120) not null,
      "event_id" varchar(40) not null,
      "topic" varchar(60) not null,
      "key" varchar(100) not null,
      "type" varchar(100) not null,
      "position" varchar(60) not null,
      "payload" jsonb not null,
      "error" text not null,
      "attempts" integer not null,
      "created_at" timestamptz not null default now(),
      unique ("consumer", "event_id")
    )`,
  ];
}

/** The outbox table (also created by the first services' own first migration, hence `if not exists`). */
export function outboxTableSql(schema: string): string[] {
  return [
    `create table if not exists "${schema}"."outbox" (
      "seq" bigserial primary key,
      "event_id" varchar(40) not null unique,
      "type" varchar(100) not null,
      "aggregate_type" varchar(60) not null,
      "aggregate_id" varchar(100) not null,
      "location_id" varchar(64) null,
      "payload" json not null,
      "created_at" timestamptz not null,
      "published_at" timestamptz null
    )`,
    `create index if not exists "outbox_unpublished_idx" on "${schema}"."outbox" ("seq") where "published_at" is null`,
    // the envelope as the service wrote it (json, not jsonb): read whole by the relay, never queried inside
    jsonPayloadSql(schema, 'outbox'),
  ];
}
