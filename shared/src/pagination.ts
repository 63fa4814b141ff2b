import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from '@bop/contracts';
import { BadRequest } from './errors';

export interface ListPage<T> {
  data: T[];
  nextCursor: string | null;
  hasMore: boolean;
}

export interface PageRequest {
  limit?: number;
  cursor?: string;
}

/** Opaque cursors: the last seen sort key, base64url-encoded. Lists are ordered by time-ordered id. */
export function encodeCursor(lastId: string): string {
  return Buffer.from(JSON.stringify({ a: lastId }), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | undefined): string | null {
  if (cursor === undefined) return null;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { a?: unknown };
    if (typeof parsed.a === 'string' && parsed.a.length > 0) return parsed.a;
  } catch {
    // fall through
  }
  throw new BadRequest('The cursor is not valid.', [{ path: 'cursor', message: 'Not a cursor returned by this list.' }]);
}

export function pageLimit(limit: number | undefined): number {
  return Math.min(Math.max(limit ?? PAGE_LIMIT_DEFAULT, 1), PAGE_LIMIT_MAX);
}

/** Builds the envelope from `limit + 1` fetched rows. */
export function toPage<R extends { id: string }, T>(rows: R[], limit: number, map: (row: R) => T): ListPage<T> {
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  return {
    data: page.map(map),
    nextCursor: hasMore ? encodeCursor(page[page.length - 1].id) : null,
    hasMore,
  };
}
