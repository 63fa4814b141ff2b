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
    // every column text: whatever a consumer got can be parked (a payload jsonb refuses, e.g. with
    // `\u0000`, or a Kafka key or header longer than the bus's own columns); the payload is the
    // event's JSON text, where a NUL stays the 6-character escape (`text` refuses a raw NUL too)
    `create table if not exists ${q('dead_letters')} (
      "id" bigserial primary key,
      "consumer" text not null,
      "event_id" text not null,
      "topic" text not null,
      "key" text not null,
      "type" text not null,
      "position" text not null,
      "payload" text not null,
      "error" text not null,
      "attempts" integer not null,
      "created_at" timestamptz not null default now(),
      unique ("consumer", "event_id")
    )`,
    deadLettersAsTextSql(schema),
  ];
}

const DEAD_LETTER_TEXT_COLUMNS = ['consumer', 'event_id', 'topic', 'key', 'type', 'position', 'payload'];

/**
 * Turns a `dead_letters` table made before (payload jsonb, varchar columns) into the all-text one,
 * once: a catalogue lookup on every start, the `alter` only while some column is not text yet
 * (jsonb's text form is the same JSON, so parked payloads stay retryable).
 */
export function deadLettersAsTextSql(schema: string): string {
  const columns = DEAD_LETTER_TEXT_COLUMNS.map((c) => `'${c}'`).join(', ');
  const alters = DEAD_LETTER_TEXT_COLUMNS.map((c) => `alter column "${c}" type text using "${c}"::text`).join(', ');
  return `do $$ begin
    if exists (select 1 from information_schema.columns where table_schema = '${schema}' and table_name = 'dead_letters' and column_name in (${columns}) and data_type <> 'text') then
      alter table "${schema}"."dead_letters" ${alters};
    end if;
  end $$`;
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
    // the writer's trace context (telemetry/trace-context.ts), copied into the bus message's headers
    `alter table "${schema}"."outbox" add column if not exists "trace_parent" varchar(64) null`,
    // the envelope as the service wrote it (json, not jsonb): read whole by the relay, never queried inside
    jsonPayloadSql(schema, 'outbox'),
  ];
}
