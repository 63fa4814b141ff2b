import type { EventEnvelope } from '@bop/contracts';
import type { EntityManager, Orm } from './db';
import { sqlQuery } from './db';
import type { Logger } from './logger';
import type { Clock } from './clock';
import type { ServiceClient } from './service-client';
import { actorOf, systemPrincipal, type Principal, type ReachSet } from './auth';
import { newId } from './ids';
import { currentTraceParent } from './telemetry/trace-context';

/**
 * The unit of work (issue 37): what the kit hands every route handler, consumer and worker round, and
 * what stores take. One way to do each basic thing:
 * - `em`: inside the transaction the kit opened for a write (a route other than GET, a consumer's
 *   batch, a worker's `write`); a plain read otherwise.
 * - `now`: the instant of this unit, read once from the service's clock (a fixed clock in tests).
 * - `actor`: who acts (the caller; the employee on `/me` rows; `system` for consumers and workers).
 * - `reach`: where the caller's permission reaches (everyone for integrations, consumers, workers).
 * - `emit(event)`: the one way to record an event: its envelope is built here and it is written to the
 *   outbox when the unit's transaction commits (never when it rolls back or runs again).
 * - `services`: other services' internal commands, bound at start-up.
 */
export interface Work {
  readonly em: EntityManager;
  readonly now: Date;
  readonly actor: Principal;
  /** the service's Postgres schema (for the kit's replica helpers and raw SQL justified by a measurement) */
  readonly schema: string;
  readonly log: Logger;
  readonly services: ServiceClient;
  /** the id of the request a route's unit serves (sent on to the services it calls); none in consumers and workers */
  readonly requestId?: string;
  /** the reaches of the row's permission (checked by the kit before the handler ran) */
  reach(): ReachSet;
  /** throws 409 `version_mismatch` when the request's If-Match names another version (no-op outside requests) */
  checkVersion(current: number): void;
  /** records an event in this unit's transaction; answers its envelope */
  emit(event: EventInput, opts?: { actor?: Principal }): EventEnvelope;
  /**
   * runs `fn` when the unit ends, in its transaction, before its events are written (in the order
   * registered): what a consumer's handler gathered over a batch written in one statement
   */
  beforeCommit(fn: () => Promise<void>): void;
}

export interface EventInput {
  type: string;
  aggregateType: string;
  aggregateId: string;
  locationId: string | null;
  /** the full resource as the API returns it */
  object: Record<string, unknown>;
  /** old values of changed fields (update events) */
  previous?: Record<string, unknown>;
}

/** The envelope of a public event (spec: Events), built in this one place; key order is part of the bytes consumers see. */
export function eventEnvelope(event: EventInput, actor: Principal | null, at: Date, id: string = newId('event')): EventEnvelope {
  return {
    id,
    type: event.type,
    createdAt: at.toISOString(),
    apiVersion: 'v1',
    actor: actorOf(actor),
    locationId: event.locationId,
    data: event.previous ? { object: event.object, previous: event.previous } : { object: event.object },
  };
}

/** What a service's units are made from (bound once at start-up). */
export interface WorkScope {
  schema: string;
  clock: Clock;
  log: Logger;
  services: ServiceClient;
}

const everyone: ReachSet = { everyone: true };

/** What `beforeCommit` in a read answers. */
export const READ_HAS_NO_COMMIT = "a read has no commit (beforeCommit in a write: a route other than GET, a consumer, a worker's write)";

export interface OpenWorkOptions {
  actor?: Principal;
  reach?: () => ReachSet;
  checkVersion?: (current: number) => void;
  log?: Logger;
  /** the unit's instant (else the scope's clock, now) */
  now?: Date;
  /** without `now`: the scope's clock is read when the unit first asks for its instant, not when it opens */
  nowWhenAsked?: boolean;
}

/** A unit and the events it emitted, which its opener writes before the transaction commits. */
export interface OpenedWork {
  work: Work;
  /** runs the unit's beforeCommit hooks, then writes what was emitted (in the transaction `em` is in); call once, at the end of the unit */
  flush(): Promise<void>;
}

/**
 * Opens a unit on `em`. The kit calls it (routes, consumers, workers); `writable` false makes `emit`
 * refuse (a read records no events).
 */
export function openWork(scope: WorkScope, em: EntityManager, writable: boolean, opts: OpenWorkOptions = {}): OpenedWork {
  const pending: OutboxEvent[] = [];
  const hooks: Array<() => Promise<void>> = [];
  const actor = opts.actor ?? systemPrincipal;
  let at: Date | undefined = opts.now ?? (opts.nowWhenAsked ? undefined : scope.clock.now());
  const work: Work = {
    em,
    get now() {
      return (at ??= scope.clock.now());
    },
    actor,
    schema: scope.schema,
    log: opts.log ?? scope.log,
    services: scope.services,
    reach: opts.reach ?? (() => everyone),
    checkVersion: opts.checkVersion ?? (() => undefined),
    emit(event, o) {
      if (!writable) throw new Error(`${event.type}: a read records no events (emit in a write: a route other than GET, a consumer, a worker's write)`);
      const envelope = eventEnvelope(event, o?.actor ?? actor, work.now);
      // the trace of where it was emitted (a consumer's span per event), not of where the unit ends
      pending.push({ envelope, event, traceParent: currentTraceParent() });
      return envelope;
    },
    beforeCommit(fn) {
      if (!writable) throw new Error(READ_HAS_NO_COMMIT);
      hooks.push(fn);
    },
  };
  return {
    work,
    async flush() {
      for (const fn of hooks.splice(0)) await fn();
      const events = pending.splice(0);
      await writeOutbox(em, scope.schema, events, work.now);
    },
  };
}

/**
 * A write in a unit of its own: one transaction on a fork of `orm`, the unit's events written before it
 * commits. For consumers and workers (routes get theirs from the kit's request path).
 */
export async function inWork<T>(orm: Orm, scope: WorkScope, fn: (work: Work) => Promise<T>, opts: OpenWorkOptions = {}): Promise<T> {
  return orm.em.fork().transactional(async (em) => {
    const unit = openWork(scope, em, true, opts);
    const result = await fn(unit.work);
    await unit.flush();
    return result;
  });
}

/**
 * The outbox rows of a unit's events, in emit order. One multi-row statement per 1,000 events with the
 * payload bound as text into a `json` column: the ORM's unit of work would build an entity per event
 * and jsonb would parse ~1 MB per sales batch (commit 041a809: that parsing cost more than the rest of
 * the append).
 */
export async function writeOutbox(em: EntityManager, schema: string, events: OutboxEvent[], at: Date): Promise<void> {
  if (events.length === 0) return;
  for (let start = 0; start < events.length; start += EVENTS_PER_INSERT) {
    const chunk = events.slice(start, start + EVENTS_PER_INSERT);
    const params: unknown[] = [];
    for (const { envelope, event, traceParent } of chunk) {
      params.push(envelope.id, event.type, event.aggregateType, event.aggregateId, event.locationId, JSON.stringify(envelope), at, traceParent);
    }
    await sqlQuery(
      em,
      `insert into "${schema}"."outbox" ("event_id", "type", "aggregate_type", "aggregate_id", "location_id", "payload", "created_at", "trace_parent")
       values ${chunk.map(() => '(?, ?, ?, ?, ?, ?::json, ?, ?)').join(', ')}`,
      params,
    );
  }
}

export interface OutboxEvent {
  envelope: EventEnvelope;
  event: EventInput;
  traceParent: string | null;
}

/** Events per insert statement (8 parameters each, far below Postgres' 65,535). */
const EVENTS_PER_INSERT = 1000;
