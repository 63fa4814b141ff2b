import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * One event to one endpoint; `body` is the exact bytes sent on every attempt. The table's `seq`
 * (insertion order, not mapped here) orders the events of one (endpoint, record).
 */
export const Delivery = defineEntity({
  name: 'Delivery',
  tableName: 'deliveries',
  properties: {
    id: p.string().primary(),
    endpointId: p.string(),
    eventId: p.string(),
    eventType: p.string(),
    /** the record (bus message key) whose events stay in order */
    recordKey: p.string(),
    body: p.text(),
    status: p.string(),
    /** attempts made, replays included */
    attempts: p.integer(),
    /** attempts made in the current retry schedule (a replay restarts it) */
    scheduleStep: p.integer(),
    /** null while it waits behind an earlier pending delivery of the same record (see the migration) */
    nextAttemptAt: p.datetime().nullable(),
    lastStatus: p.integer().nullable(),
    lastError: p.string().nullable(),
    lastAttemptAt: p.datetime().nullable(),
    /** a worker's claim: until then nobody else sends it (crash recovery after) */
    lockedUntil: p.datetime().nullable(),
    lease: p.string().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    /** W3C `traceparent` of the consumer span that queued it (null when not traced): each attempt's span continues it */
    traceParent: p.string().nullable(),
    /** the replay (`:replay`) that queued it; null for the fan-out's, a ping's */
    replayId: p.string().nullable(),
  },
});
export type Delivery = InferEntity<typeof Delivery>;
