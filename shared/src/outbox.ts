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
      /** W3C `traceparent` of the transaction that wrote the event (null when not traced): the bus message carries it on */
      traceParent: p.string().nullable(),
    },
  });
}

export { outboxTableSql } from './kit-tables';
