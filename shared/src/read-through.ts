import type { AreaService } from '@bop/contracts';
import type { EntityManager } from './db';
import { isDatabaseUnavailable } from './db-faults';
import { ApiError } from './errors';
import { callCommand, type ServiceClient } from './service-client';

/**
 * Read-through of a replica (architecture: "Consistency and faults"). A service's replica of another
 * service's records (locations, items, later employees …) is fed by events, so it lags the owner by
 * the event delay. Before a write is refused because of the replica (a record it does not hold yet,
 * or a state that decides the answer, such as archived), the service reads the records from the
 * owner's internal read; the owner's answer decides and is upserted into the replica (never over a
 * newer state). Each replica declares its owner's read and its upsert once with `readThroughReplica`.
 */

/**
 * What the owner said: `answered` (its current rows; a record it does not return does not exist),
 * `unreachable` (down or failing: retry later), or `unconfigured` (this process has no way to reach
 * it, e.g. a service started on its own without SERVICE_URL_<OWNER>: the replica decides alone).
 */
export type ReadThroughAnswer<R> = { status: 'answered'; rows: R[]; current: string[] } | { status: 'unreachable'; detail: string } | { status: 'unconfigured' };

export interface ReadThroughDef<Q, R> {
  /** the service that masters the records */
  owner: AreaService;
  /** its internal read, `POST` (e.g. `/internal/locations:resolve`): one call for a whole batch */
  path: string;
  /** for error details ("resolve locations") */
  what: string;
  /** the rows of its answer */
  rows(answer: unknown): R[];
  /** the ids its answer says the replica holds at their current version (asked with the replica's versions; not in `rows`) */
  current?(answer: unknown): string[];
  /** writes the rows into the replica of `schema`, each only over an older state (`updated_at`) */
  upsert(em: EntityManager, schema: string, rows: R[]): Promise<void>;
  /** a query that asks for nothing (no call is made) */
  isEmpty(query: Q): boolean;
}

export interface ReadThroughReplica<Q, R> {
  /**
   * Reads `query` from the owner and upserts what it answered into the replica of `schema` (only the
   * rows `newer` says the replica lacks, when given: an up-to-date replica is not written).
   */
  read(em: EntityManager, schema: string, query: Q, newer: ((row: R) => boolean) | undefined, client: ServiceClient): Promise<ReadThroughAnswer<R>>;
  /** The upsert the replica's consumer uses too (one rule for events and read-through). */
  upsert(em: EntityManager, schema: string, rows: R[]): Promise<void>;
}

/** Declares a replica's read-through: its owner's internal read and the replica's upsert. */
export function readThroughReplica<Q, R>(def: ReadThroughDef<Q, R>): ReadThroughReplica<Q, R> {
  return {
    upsert: def.upsert,
    async read(em, schema, query, newer, client) {
      if (def.isEmpty(query)) return { status: 'answered', rows: [], current: [] };
      if (!client.has(def.owner)) return { status: 'unconfigured' };
      let rows: R[];
      let current: string[];
      try {
        const answer = await callCommand<unknown>(client, def.owner, 'POST', def.path, query, { what: def.what, ok: [200] });
        rows = def.rows(answer);
        current = def.current?.(answer) ?? [];
      } catch (err) {
        if (err instanceof ApiError && err.code === 'service_unavailable') return { status: 'unreachable', detail: err.message };
        throw err;
      }
      const keep = newer ? rows.filter(newer) : rows;
      if (keep.length > 0) await upsertQuietly(em, (tem) => def.upsert(tem, schema, keep));
      return { status: 'answered', rows, current };
    },
  };
}

/**
 * The replica is a cache: the owner's answer stands even when keeping it fails (a concurrent consumer
 * holds a conflicting row), so only an outage is raised. Within the request's transaction the upsert
 * runs in a savepoint of its own (no second connection is held while the first waits, and a failure
 * leaves the transaction usable): a refused write keeps nothing, the owner's event brings it later.
 */
async function upsertQuietly(em: EntityManager, work: (em: EntityManager) => Promise<void>): Promise<void> {
  try {
    // a transaction within the request's is MikroORM's savepoint, rolled back (and the error raised) when the upsert fails
    if (em.isInTransaction()) await em.transactional((tem) => work(tem));
    else await work(em);
  } catch (err) {
    if (isDatabaseUnavailable(err)) throw err;
  }
}
