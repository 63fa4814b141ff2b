import { defineEntity, p } from '@mikro-orm/core';

/**
 * The outbox of one service schema: events recorded in the same transaction as the change
 * (spec: ingestion rule 11); the relay publishes them in `seq` order.
 * A factory, because every service owns its own table in its own schema.
 */
export function defineOutbox(schema: string) {
  return defineEntity({
    name: 'OutboxEntry',
    schema,
    tableName: 'outbox',
    properties: {
      seq: p.bigint('string').primary().autoincrement(),
      eventId: p.string().unique(),
      type: p.string(),
      aggregateType: p.string(),
      aggregateId: p.string(),
      locationId: p.string().nullable(),
      payload: p.json<Record<string, unknown>>(),
      createdAt: p.datetime(),
      publishedAt: p.datetime().nullable(),
    },
  });
}

/** SQL for the outbox table, for a service's first migration. */
export function outboxTableSql(schema: string): string[] {
  return [
    `create table "${schema}"."outbox" (
      "seq" bigserial primary key,
      "event_id" varchar(40) not null unique,
      "type" varchar(100) not null,
      "aggregate_type" varchar(60) not null,
      "aggregate_id" varchar(64) not null,
      "location_id" varchar(64) null,
      "payload" jsonb not null,
      "created_at" timestamptz not null,
      "published_at" timestamptz null
    )`,
    `create index "outbox_unpublished_idx" on "${schema}"."outbox" ("seq") where "published_at" is null`,
  ];
}
