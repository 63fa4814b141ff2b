import type { EntityName, FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findPlain } from './find-plain';
import { decodeCursor, pageLimit, toPage, type ListPage, type PageRequest } from './pagination';

/** A filter of a list: a condition, or a falsy value for a filter the request did not set. */
export type PageFilter<E> = FilterQuery<E> | false | '' | 0 | null | undefined;

/**
 * One cursor page of an entity's rows, oldest first by (time-ordered) id: the conditions the request
 * set, ANDed, after the cursor's id, `limit + 1` rows fetched to know whether more follow. The one
 * shape of the ORM lists (`GET /purchase-orders`, `GET /locations` …); map the page with `mapPage`.
 * Rows are plain (`findPlain`: no entities built or tracked; a list only answers).
 */
export async function findPage<E extends { id: string }>(em: EntityManager, entity: EntityName<E>, filters: readonly PageFilter<E>[], page: PageRequest): Promise<ListPage<E>> {
  const where = filters.filter(Boolean) as FilterQuery<E>[];
  const after = decodeCursor(page.cursor);
  if (after) where.unshift({ id: { $gt: after } } as unknown as FilterQuery<E>);
  const n = pageLimit(page.limit);
  const rows = await findPlain(em, entity, (where.length === 0 ? {} : where.length === 1 ? where[0] : { $and: where }) as FilterQuery<E>, { orderBy: { id: 'asc' } as never, limit: n + 1 });
  return toPage(rows, n, (row) => row);
}

/** The page with each row mapped (to its wire shape). */
export function mapPage<R, T>(page: ListPage<R>, map: (row: R) => T): ListPage<T> {
  return { ...page, data: page.data.map(map) };
}
