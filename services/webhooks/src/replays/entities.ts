import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A replay of the event log to one endpoint (`POST /webhook-endpoints/{id}:replay`). `types` are the
 * catalogue types it resolved to when asked for; it queues the logged events of those types created
 * in [fromAt, toAt) and made visible by round `boundRound` or before, in (visibleRound, arrival)
 * order, a batch a worker round, `position*` being the last event queued (see the migration).
 */
export const Replay = defineEntity({
  name: 'Replay',
  tableName: 'replays',
  properties: {
    id: p.string().primary(),
    endpointId: p.string(),
    fromAt: p.datetime(),
    toAt: p.datetime(),
    /** the `types` of the request; null: every type the endpoint subscribes to */
    requestedTypes: p.json<string[]>().nullable(),
    types: p.json<string[]>(),
    status: p.string(),
    boundRound: p.bigint('number'),
    positionRound: p.bigint('number').nullable(),
    positionArrival: p.bigint('number').nullable(),
    matched: p.integer(),
    queued: p.integer(),
    error: p.string().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    completedAt: p.datetime().nullable(),
  },
});
export type Replay = InferEntity<typeof Replay>;
