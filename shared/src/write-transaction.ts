import type { EntityManager } from './db';
import type { ApiError } from './errors';

interface PgError {
  code?: string;
  constraint?: string;
}

const pg = (err: unknown): PgError => (typeof err === 'object' && err !== null ? (err as PgError) : {});

/** unique violation, deadlock, serialization failure: another writer got there first */
const RACES = new Set(['23505', '40P01', '40001']);

/**
 * One request's writes in one transaction. When a concurrent writer wins a race the checks could not
 * see (a unique index fires, a deadlock), the work runs once more: its checks now see what the other
 * writer committed and answer as they would have (a PUT that lost a create race replaces; a duplicate
 * gets its 409 with the field path). Should the second run lose again, a unique violation is still a 409.
 */
export async function writeTransaction<T>(
  em: EntityManager,
  work: (tem: EntityManager) => Promise<T>,
  conflict: (constraint: string | undefined) => ApiError,
  /** runs of the work at most (a batch touching many shared rows may lose more than one race) */
  attempts = 2,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await em.transactional((tem) => work(tem));
    } catch (err) {
      const { code, constraint } = pg(err);
      if (code === undefined || !RACES.has(code)) throw err;
      if (attempt < attempts) continue;
      if (code === '23505') throw conflict(constraint);
      throw err;
    }
  }
}
