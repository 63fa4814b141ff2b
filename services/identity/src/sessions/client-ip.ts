import type { IncomingHttpHeaders } from 'node:http';
import { decodeCursor, encodeCursor, type ListPage } from '@bop/shared';

/**
 * The client address: the last X-Forwarded-For entry, the one the gateway set or appended. Earlier
 * entries come from the client and could be forged to dodge the sign-in limiter.
 */
export function clientIp(headers: IncomingHttpHeaders): string {
  const raw = headers['x-forwarded-for'];
  const last = (Array.isArray(raw) ? raw.join(',') : raw)?.split(',').pop()?.trim();
  return last && last.length <= 64 ? last : 'unknown';
}

/** The list envelope over an in-memory list sorted by `keyOf` (catalogue lists). */
export function pageOf<T>(items: T[], keyOf: (item: T) => string, q: { limit: number; cursor?: string }): ListPage<T> {
  const after = decodeCursor(q.cursor);
  const sorted = [...items].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  const rest = after === null ? sorted : sorted.filter((i) => keyOf(i) > after);
  const data = rest.slice(0, q.limit);
  const hasMore = rest.length > q.limit;
  return { data, hasMore, nextCursor: hasMore ? encodeCursor(keyOf(data[data.length - 1])) : null };
}
