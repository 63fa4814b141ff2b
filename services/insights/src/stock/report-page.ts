import { decodeCursor, pageLimit, toPage, type ListPage } from '@bop/shared';

/** What a report's store function takes: the locations (already within the caller's reach), business days `from`..`to`, and a cursor page. */
export interface ReportParams {
  locationIds: string[];
  from: string;
  to: string;
  cursor?: string;
  limit?: number;
}

/** One cursor page of report rows computed in full and ordered by `key` (the cursor is the last key seen). */
export function reportPage<T>(rows: Array<{ key: string; row: T }>, p: Pick<ReportParams, 'cursor' | 'limit'>): ListPage<T> {
  const after = decodeCursor(p.cursor);
  const n = pageLimit(p.limit);
  const sorted = rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).filter((r) => after === null || r.key > after);
  return toPage(
    sorted.slice(0, n + 1).map((r) => ({ id: r.key, row: r.row })),
    n,
    (r) => r.row,
  );
}
