import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { Conflict, findPage, findPlain, mapPage, newId, NotFound, ValidationError, type FieldError, type Work } from '@bop/shared';
import { Endpoint } from '../endpoints/entities';
import { IntegrationState } from '../integrations/entities';
import { EventLogState, LoggedEvent } from '../events/entities';
import { sentTypes, typesOfFilter } from '../events/readable-types';
import { loadFeatureStates } from '../features/store';
import { insertDeliveries } from '../deliveries/store';
import { Replay } from './entities';

const DAY_MS = 86_400_000;

/** The most events one replay queues (beyond it: 422, narrow the range or the types). */
export const REPLAY_MAX_EVENTS = 100_000;

export interface ReplayRequest {
  from: string;
  to?: string;
  types?: string[];
}

export function replayDto(r: Replay) {
  return {
    id: r.id,
    endpointId: r.endpointId,
    from: r.fromAt.toISOString(),
    to: r.toAt.toISOString(),
    types: r.requestedTypes ?? null,
    status: r.status as 'queued' | 'running' | 'completed' | 'failed',
    matched: r.matched,
    queued: r.queued,
    error: r.error ?? null,
    createdAt: r.createdAt.toISOString(),
    completedAt: r.completedAt ? r.completedAt.toISOString() : null,
  };
}

/** The conflict of a second replay while one is queued or running (also the unique index's, on a race). */
export function replayRunning(endpointId: string | null, running?: Pick<Replay, 'id' | 'status'>): Conflict {
  const which = running ? `Replay ${running.id} is still ${running.status}` : 'A replay is still queued or running';
  const follow = `GET /webhook-endpoints/${endpointId ?? '{id}'}/replays`;
  return new Conflict(`${which} for ${endpointId ? `endpoint ${endpointId}` : 'this endpoint'}; one replay runs at a time per endpoint. Follow it with ${follow}.`);
}

/**
 * The types a replay to `endpoint` queues: those the fan-out would send it now (its subscription, an
 * integration's scopes, features on), narrowed by the request's `types` entries (as `GET /events`'s
 * `type` filter reads them); an entry naming none of them is an error at `types[i]`.
 */
async function replayTypes(w: Work, endpoint: Endpoint, requested: string[] | undefined): Promise<{ types: string[]; errors: FieldError[] }> {
  const scopes = endpoint.integrationId ? ((await w.em.findOne(IntegrationState, { integrationId: endpoint.integrationId }))?.scopes ?? []) : null;
  const features = await loadFeatureStates(w);
  const sent = sentTypes({ events: endpoint.events, scopes }, features);
  if (requested === undefined) return { types: sent, errors: [] };
  const errors: FieldError[] = [];
  const kept = new Set<string>();
  requested.forEach((entry, i) => {
    const named = typesOfFilter(entry, { scopes, features });
    if (named.errors.length > 0) {
      errors.push(...named.errors.map((e) => ({ path: `types[${i}]`, message: e.message })));
      return;
    }
    const mine = named.types.filter((t) => sent.includes(t));
    if (mine.length === 0) errors.push({ path: `types[${i}]`, message: `${entry} names no event type this endpoint is sent (it subscribes to ${endpoint.events.join(', ')}; switched-off features are left out).` });
    mine.forEach((t) => kept.add(t));
  });
  return { types: sent.filter((t) => kept.has(t)), errors };
}

/** The logged events a replay queues after its position (all of them without one). */
function remaining(r: Pick<Replay, 'types' | 'fromAt' | 'toAt' | 'boundRound' | 'positionRound' | 'positionArrival'>): FilterQuery<LoggedEvent> {
  const where: FilterQuery<LoggedEvent>[] = [
    { visibleRound: { $ne: null, $lte: r.boundRound } },
    { type: { $in: r.types } },
    { createdAt: { $gte: r.fromAt, $lt: r.toAt } },
  ];
  if (r.positionRound != null && r.positionArrival != null) {
    where.push({ $or: [{ visibleRound: { $gt: r.positionRound } }, { visibleRound: r.positionRound, arrival: { $gt: r.positionArrival } }] });
  }
  return { $and: where };
}

/**
 * `POST /webhook-endpoints/{id}:replay`: checks the range (from before to, within the log's retention)
 * and the types, counts the matching events now visible (at most REPLAY_MAX_EVENTS) and records the
 * replay, queued for its worker; one queued or running replay per endpoint (409: the check here, and
 * the partial unique index for two requests racing). No lock on the endpoint: the count may take a
 * while and the delivery worker writes the endpoint's failures meanwhile.
 */
export async function startReplay(w: Work, endpointId: string, input: ReplayRequest, retentionDays: number) {
  const endpoint = await w.em.findOne(Endpoint, { id: endpointId });
  if (!endpoint) throw new NotFound('webhook endpoint', endpointId);
  const now = w.now;
  const from = new Date(input.from);
  const to = input.to ? new Date(input.to) : now;
  const errors: FieldError[] = [];
  const oldest = new Date(now.getTime() - retentionDays * DAY_MS);
  if (from.getTime() < oldest.getTime()) {
    errors.push({ path: 'from', message: `The event log keeps ${retentionDays} days of events: from must be at or after ${oldest.toISOString()}.` });
  }
  if (to.getTime() <= from.getTime()) errors.push({ path: input.to ? 'to' : 'from', message: input.to ? 'Must be after from.' : 'Must be before now (to defaults to now).' });
  const resolved = await replayTypes(w, endpoint, input.types);
  errors.push(...resolved.errors);
  if (errors.length > 0) throw new ValidationError(errors, 'The replay is not valid.');

  const running = await w.em.findOne(Replay, { endpointId, status: { $in: ['queued', 'running'] } });
  if (running) throw replayRunning(endpointId, running);

  // the events visible now: every round up to the sequencer's last committed one
  const bound = (await w.em.findOneOrFail(EventLogState, { key: 'sequencer' })).lastRound;
  const replay = { types: resolved.types, fromAt: from, toAt: to, boundRound: bound, positionRound: null, positionArrival: null };
  const matched = resolved.types.length === 0 ? 0 : await w.em.count(LoggedEvent, remaining(replay));
  if (matched > REPLAY_MAX_EVENTS) {
    throw new ValidationError(
      [{ path: 'to', message: `${matched.toLocaleString('en-US')} events match; a replay queues at most ${REPLAY_MAX_EVENTS.toLocaleString('en-US')}: narrow from/to or types, and replay the rest in further requests.` }],
      'Too many events match the replay.',
    );
  }
  const row = w.em.create(Replay, {
    id: newId('webhookReplay'),
    endpointId,
    ...replay,
    requestedTypes: input.types ?? null,
    // nothing to queue: done at once
    status: matched === 0 ? 'completed' : 'queued',
    matched,
    queued: 0,
    error: null,
    createdAt: now,
    updatedAt: now,
    completedAt: matched === 0 ? now : null,
  });
  await w.em.flush();
  return replayDto(row);
}

/** `GET /webhook-endpoints/{id}/replays`: a page in id order (oldest first; change order with `updatedSince`). */
export async function listReplays(w: Work, endpointId: string, query: { limit?: number; cursor?: string; updatedSince?: string }) {
  if (!(await w.em.findOne(Endpoint, { id: endpointId }))) throw new NotFound('webhook endpoint', endpointId);
  return mapPage(await findPage(w.em, Replay, [{ endpointId }], query), replayDto);
}

/**
 * One batch of the oldest replay waiting (skipping one another replica holds): up to `batch` of its
 * events queued as deliveries to its endpoint, in the log's order, each with the event's id, body and
 * record key (so one record's events go out in order, behind any of that record still pending), and
 * its position moved past them, in one transaction, so a crash loses nothing and repeats nothing.
 * The batch that finds fewer than `batch` completes it (`failed` when retention removed matched
 * events before they were queued). Answers whether it found a replay (more may wait).
 */
export async function replayBatch(w: Work, batch: number): Promise<boolean> {
  const [replay] = await w.em.find(Replay, { status: { $in: ['queued', 'running'] } }, { orderBy: { id: 'asc' }, limit: 1, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE });
  if (!replay) return false;
  const rows = await findPlain(w.em, LoggedEvent, remaining(replay), { orderBy: { visibleRound: 'asc', arrival: 'asc' }, limit: batch });
  await insertDeliveries(
    w,
    rows.map((e) => ({
      id: newId('webhookDelivery'),
      endpointId: replay.endpointId,
      eventId: e.eventId,
      eventType: e.type,
      // the fan-out's key; an event logged before the log kept it queues by its object
      recordKey: e.recordKey ?? e.objectId ?? e.eventId,
      body: e.body,
      replayId: replay.id,
    })),
  );
  const last = rows[rows.length - 1];
  if (last) {
    replay.positionRound = last.visibleRound;
    replay.positionArrival = last.arrival;
  }
  replay.queued += rows.length;
  replay.status = 'running';
  replay.updatedAt = w.now;
  if (rows.length < batch) {
    const missing = replay.matched - replay.queued;
    replay.status = missing > 0 ? 'failed' : 'completed';
    replay.error = missing > 0 ? `${missing} of the ${replay.matched} matched events left the event log (retention) before they were queued.` : null;
    replay.completedAt = w.now;
  }
  await w.em.flush();
  return true;
}
