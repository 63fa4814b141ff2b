import { Utils, type EntityName, type EntityProperty, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ChangePage } from './changes';
import { FIND_PLAIN_ALIAS, findPlain, findPlainRaw } from './find-plain';
import { decodeCursor, pageLimit, toPage, type ListPage, type PageRequest } from './pagination';

/** A filter of a list: a condition, or a falsy value for a filter the request did not set. */
export type PageFilter<E> = FilterQuery<E> | false | '' | 0 | null | undefined;

/**
 * One cursor page of an entity's rows, oldest first by (time-ordered) id: the conditions the request
 * set, ANDed, after the cursor's id, `limit + 1` rows fetched to know whether more follow. The one
 * shape of the ORM lists (`GET /purchase-orders`, `GET /locations` …); map the page with `mapPage`.
 * Rows are plain (`findPlain`: no entities built or tracked; a list only answers).
 *
 * With `page.updatedSince` the page is change-ordered and commit-safe (changes.ts, `ChangePage`):
 * rows with updatedAt ≥ it, by (change_xid, id); the table must track its changes (`trackChangesSql`).
 */
export async function findPage<E extends { id: string }>(em: EntityManager, entity: EntityName<E>, filters: readonly PageFilter<E>[], page: PageRequest & { updatedSince?: string; exclude?: readonly string[] }): Promise<ListPage<E>> {
  const where = filters.filter(Boolean) as FilterQuery<E>[];
  const condition = (where.length === 0 ? {} : where.length === 1 ? where[0] : { $and: where }) as FilterQuery<E>;
  if (page.updatedSince) {
    const changes = await ChangePage.open(em, { cursor: page.cursor, limit: page.limit, updatedSince: page.updatedSince });
    const meta = em.getMetadata().find(Utils.className(entity as string));
    const updatedAt = (meta?.properties as Record<string, EntityProperty> | undefined)?.updatedAt?.fieldNames?.[0] ?? 'updated_at';
    const { sql, params } = changes.where(FIND_PLAIN_ALIAS, updatedAt);
    const rows = await findPlainRaw(em, entity, condition, {
      extra: { where: sql, params, orderBy: changes.orderBy(FIND_PLAIN_ALIAS), columns: changes.column(FIND_PLAIN_ALIAS) },
      limit: changes.limit + 1,
      exclude: page.exclude,
    });
    return changes.page(rows, (r) => [String(r.raw.change_xid), r.row.id], (r) => r.row);
  }
  const after = decodeCursor(page.cursor);
  if (after) where.unshift({ id: { $gt: after } } as unknown as FilterQuery<E>);
  const n = pageLimit(page.limit);
  const rows = await findPlain(em, entity, (where.length === 0 ? {} : where.length === 1 ? where[0] : { $and: where }) as FilterQuery<E>, { orderBy: { id: 'asc' } as never, limit: n + 1, exclude: page.exclude });
  return toPage(rows, n, (row) => row);
}

/** The page with each row mapped (to its wire shape). */
export function mapPage<R, T>(page: ListPage<R>, map: (row: R) => T): ListPage<T> {
  return { ...page, data: page.data.map(map) };
}
