import { decodeCursor, encodeCursor, type ListPage } from '@bop/shared';

/** The list envelope over an in-memory list sorted by `keyOf` (catalogue lists). */
export function pageOf<T>(items: T[], keyOf: (item: T) => string, q: { limit: number; cursor?: string }): ListPage<T> {
  const after = decodeCursor(q.cursor);
  const sorted = [...items].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  const rest = after === null ? sorted : sorted.filter((i) => keyOf(i) > after);
  const data = rest.slice(0, q.limit);
  const hasMore = rest.length > q.limit;
  return { data, hasMore, nextCursor: hasMore ? encodeCursor(keyOf(data[data.length - 1])) : null };
}
