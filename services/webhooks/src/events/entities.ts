import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * One public event as `GET /events` answers it: `body` is the envelope exactly as its webhook
 * deliveries send it. Read in (visibleRound, arrival) order; a row is not read before its round is set
 * (see the migration).
 */
export const LoggedEvent = defineEntity({
  name: 'LoggedEvent',
  tableName: 'event_log',
  properties: {
    eventId: p.string().primary(),
    type: p.string(),
    locationId: p.string().nullable(),
    /** data.object.id */
    objectId: p.text().nullable(),
    createdAt: p.datetime(),
    body: p.text(),
    /** the bus message key its deliveries queue by (one record's events stay in order); null for events logged before it was kept */
    recordKey: p.text().nullable(),
    // the column's default (the migration's): the next of the schema's event_log_arrival_seq
    arrival: p.bigint('number').defaultRaw(`nextval('event_log_arrival_seq')`),
    /** the sequencer's round that made it visible; null until then */
    visibleRound: p.bigint('number').nullable(),
    loggedAt: p.datetime(),
  },
});
export type LoggedEvent = InferEntity<typeof LoggedEvent>;

/** The sequencer's state (one row, `sequencer`): the last round that made events visible, never reused. */
export const EventLogState = defineEntity({
  name: 'EventLogState',
  tableName: 'event_log_state',
  properties: {
    key: p.string().primary(),
    lastRound: p.bigint('number'),
  },
});
export type EventLogState = InferEntity<typeof EventLogState>;
