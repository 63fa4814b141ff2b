import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { EventEnvelope } from '@bop/contracts';
import { BadRequest, chunks, decodeCursor, encodeCursor, findPlain, pageLimit, withoutNul, type ListPage, type Work } from '@bop/shared';
import { EventLogState, LoggedEvent } from './entities';

/** An event the fan-out handled, as the log keeps it. */
export interface EventToLog {
  event: EventEnvelope;
  /** the body its deliveries carry */
  body: string;
  recordKey: string | null;
}

/** Rows a statement inserts at most (a statement of bodies stays a few MB at most). */
const LOG_CHUNK = 1_000;

/**
 * Logs the events the fan-out handled, in its transaction, with the bodies their deliveries carry: one
 * multi-row insert per batch. Once per event id: a redelivered event changes nothing. Not visible
 * before the sequencer's next round.
 */
export async function logEvents(w: Work, events: readonly EventToLog[]): Promise<void> {
  for (const chunk of chunks(events, LOG_CHUNK)) {
    await w.em
      .createQueryBuilder(LoggedEvent)
      .insert(chunk.map((e) => loggedRow(w, e)))
      .onConflict('eventId')
      .ignore()
      .execute();
  }
}

function loggedRow(w: Work, { event, body, recordKey }: EventToLog) {
  const object = event.data?.object as { id?: unknown } | null | undefined;
  const objectId = object && typeof object === 'object' ? object.id : undefined;
  // a producer's bad createdAt must not hold back its webhooks: the log files it under when it arrived
  const createdAt = new Date(event.createdAt);
  // the columns Postgres must store as text hold no NUL (the body escapes it)
  return {
    eventId: withoutNul(event.id),
    type: withoutNul(event.type),
    locationId: withoutNul(event.locationId ?? null),
    objectId: typeof objectId === 'string' ? withoutNul(objectId) : null,
    createdAt: Number.isNaN(createdAt.getTime()) ? w.now : createdAt,
    body,
    recordKey: recordKey === null ? null : withoutNul(recordKey),
    loggedAt: w.now,
  };
}

/**
 * The sequencer's round: every logged row committed so far and not yet visible gets the next round
 * number. Rounds run one at a time (the state row's lock), each numbered above every committed one,
 * and a row committed after this statement's snapshot waits for a later round: so a reader that saw
 * round n never finds a row of round n or below later. Answers the rows made visible.
 */
export async function makeLoggedEventsVisible(w: Work): Promise<number> {
  const state = await w.em.findOneOrFail(EventLogState, { key: SEQUENCER }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  const round = state.lastRound + 1;
  const n = await w.em.nativeUpdate(LoggedEvent, { visibleRound: null }, { visibleRound: round });
  if (n > 0) {
    state.lastRound = round;
    await w.em.flush();
  }
  return n;
}

const SEQUENCER = 'sequencer';

/** Deletes up to `limit` of the oldest events created before `before`; answers how many. */
export async function pruneLoggedEvents(w: Work, before: Date, limit: number): Promise<number> {
  const rows: Array<{ eventId: string }> = await w.em
    .createQueryBuilder(LoggedEvent)
    .select('eventId')
    .where({ createdAt: { $lt: before } })
    .orderBy({ createdAt: 'asc' })
    .limit(limit)
    .execute('all');
  if (rows.length === 0) return 0;
  return w.em.nativeDelete(LoggedEvent, { eventId: { $in: rows.map((r) => r.eventId) } });
}

export interface EventLogQuery {
  limit?: number;
  cursor?: string;
  order: 'asc' | 'desc';
  from?: string;
  to?: string;
  objectId?: string;
}

/** A position in the log: (visible round, arrival), as the opaque cursor carries it. */
function positionOf(cursor: string | undefined): { round: number; arrival: number } | null {
  const text = decodeCursor(cursor);
  if (text === null) return null;
  const m = /^(\d{1,15})\.(\d{1,15})$/.exec(text);
  if (!m) throw new BadRequest('The cursor is not valid.', [{ path: 'cursor', message: 'Not a cursor returned by GET /events.' }]);
  return { round: Number(m[1]), arrival: Number(m[2]) };
}

/**
 * `GET /events`: a page of the visible events of `types` (and, with `locationIds`, only those of these
 * locations or of none), in visibility order or its reverse.
 */
export async function listLoggedEvents(w: Work, query: EventLogQuery, types: string[], locationIds: string[] | null): Promise<ListPage<EventEnvelope>> {
  const after = positionOf(query.cursor);
  const n = pageLimit(query.limit);
  const asc = query.order === 'asc';
  if (types.length === 0) return { data: [], nextCursor: asc ? (query.cursor ?? null) : null, hasMore: false };
  const beyond = asc ? '$gt' : '$lt';
  const where: FilterQuery<LoggedEvent>[] = [{ visibleRound: { $ne: null } }, { type: { $in: types } }];
  if (after) where.push({ $or: [{ visibleRound: { [beyond]: after.round } }, { visibleRound: after.round, arrival: { [beyond]: after.arrival } }] });
  if (locationIds) where.push({ $or: [{ locationId: null }, { locationId: { $in: locationIds } }] });
  if (query.from) where.push({ createdAt: { $gte: new Date(query.from) } });
  if (query.to) where.push({ createdAt: { $lt: new Date(query.to) } });
  if (query.objectId) where.push({ objectId: query.objectId });
  const dir = asc ? 'asc' : 'desc';
  const rows = await findPlain(w.em, LoggedEvent, { $and: where }, { orderBy: { visibleRound: dir, arrival: dir }, limit: n + 1 });
  const hasMore = rows.length > n;
  const page = hasMore ? rows.slice(0, n) : rows;
  const last = page[page.length - 1];
  // oldest first, the cursor stays after the end too: the reader keeps it and asks again for what
  // became visible since (hasMore: more is waiting now)
  const next = last ? encodeCursor(`${last.visibleRound}.${last.arrival}`) : asc ? (query.cursor ?? null) : null;
  return {
    // the stored body is the delivery's JSON text: parsed, it answers the same bytes
    data: page.map((r) => JSON.parse(r.body) as EventEnvelope),
    nextCursor: hasMore || asc ? next : null,
    hasMore,
  };
}
