import type { EntityManager } from '@mikro-orm/postgresql';
import { BadRequest } from './errors';
import { pageLimit, type ListPage } from './pagination';

/**
 * Commit-safe `updatedSince` polling: a list of a mutable resource, asked with `updatedSince`, pages in
 * the order its rows were changed by committed transactions rather than by id or updatedAt (either of
 * which a transaction that began first and commits last places behind a poller already past it).
 *
 * Each such table carries `change_xid xid8` — the id of the transaction that last inserted or updated
 * the row (default `pg_current_xact_id()` on insert, a BEFORE UPDATE trigger on update; `trackChangesSql`
 * writes the migration) — indexed with the row's key. A page is ordered by (change_xid, key…) after the
 * cursor's position. Before the rows are read, the page takes the horizon
 * `pg_snapshot_xmin(pg_current_snapshot())`: every transaction below it has ended, so every row with
 * change_xid below it that will ever exist is already visible, and every row not visible yet (a writer
 * still running, or one that begins later) will carry change_xid ≥ horizon. (Taken in a statement
 * before the read, not in it: a later snapshot's xmin is never lower, so the horizon stays safe.)
 *
 * The page holds every visible row (read-your-writes), but its cursor never moves past the horizon:
 * when the page reaches rows at or beyond it, `nextCursor` is (horizon, '') and `hasMore` is false —
 * poll again later with that cursor. Rows changed by transactions that were still running anywhere in
 * the database may so come again in the next poll (duplicates, never gaps). Without `updatedSince`
 * a list keeps its id order and cursors; a cursor of the one order is a 400 (`cursor`) in the other.
 */

/**
 * The migration SQL that tracks a table's changes: the change_xid column, its trigger, its index (rows of
 * before stay, with the migration's xid). `when`: the trigger's condition (on `old`/`new`), for a table
 * whose bookkeeping updates (a worker's lease) change nothing a list shows — they then keep the row's
 * change and stay HOT-eligible. `indexPrefix`: columns before (change_xid, key…) in the index, for a list
 * always filtered by them (a parent's id).
 */
export function trackChangesSql(schema: string, table: string, keyColumns: readonly string[] = ['id'], opts: { when?: string; indexPrefix?: readonly string[] } = {}): string[] {
  const q = `"${schema}"."${table}"`;
  const keys = [...(opts.indexPrefix ?? []), 'change_xid', ...keyColumns].map((c) => `"${c}"`).join(', ');
  return [
    `create or replace function "${schema}"."track_change_xid"() returns trigger language plpgsql as $$
     begin new."change_xid" := pg_current_xact_id(); return new; end $$`,
    `alter table ${q} add column if not exists "change_xid" xid8 not null default pg_current_xact_id()`,
    `drop trigger if exists "${table}_change_xid" on ${q}`,
    `create trigger "${table}_change_xid" before update on ${q} for each row${opts.when ? ` when (${opts.when})` : ''} execute function "${schema}"."track_change_xid"()`,
    `create index if not exists "${table}_change_xid_idx" on ${q} (${keys})`,
  ];
}

/** Where a change-ordered page goes on from: the change_xid (decimal text) and the row's key values. */
export type ChangePosition = [xid: string, ...key: string[]];

const XID = /^\d{1,20}$/;

export function encodeChangeCursor(position: ChangePosition): string {
  return Buffer.from(JSON.stringify({ c: position }), 'utf8').toString('base64url');
}

/** The position of a change-ordered list's cursor, null without one; a cursor of the id order or any other text is a 400 (`cursor`). */
export function decodeChangeCursor(cursor: string | undefined | null, keyCount = 1): ChangePosition | null {
  if (cursor === undefined || cursor === null) return null;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { c?: unknown };
    const c = parsed.c;
    if (Array.isArray(c) && c.length === keyCount + 1 && c.every((v) => typeof v === 'string') && XID.test(c[0] as string)) return c as ChangePosition;
  } catch {
    // fall through
  }
  throw new BadRequest('The cursor is not valid.', [{ path: 'cursor', message: 'Not a cursor returned by this list with these filters (with updatedSince, lists page in change order).' }]);
}

const xidOf = (v: string): bigint => BigInt(v);

/**
 * One change-ordered page of a list asked with `updatedSince`: the SQL pieces (with `?` placeholders)
 * the list puts in its select — a `where` part, the order, the change_xid column to read — and `page`,
 * which builds the envelope from the `limit + 1` rows read. `open` decodes the cursor (400 `cursor`)
 * and takes the horizon; every list (findPage and the raw-SQL ones) goes through it.
 */
export class ChangePage {
  private constructor(
    /** the position after which rows come, null from the start */
    readonly after: ChangePosition | null,
    /** pg_snapshot_xmin of a snapshot taken before the rows are read */
    readonly horizon: string,
    readonly limit: number,
    private readonly keyColumns: readonly string[],
    readonly updatedSince: Date,
  ) {}

  static async open(em: EntityManager, q: { cursor?: string | null; limit?: number; updatedSince: string | Date }, keyColumns: readonly string[] = ['id']): Promise<ChangePage> {
    const after = decodeChangeCursor(q.cursor, keyColumns.length);
    const [row] = await em.getConnection().execute<Array<{ h: string }>>(`select pg_snapshot_xmin(pg_current_snapshot())::text as "h"`, [], 'all', em.getTransactionContext());
    return new ChangePage(after, row.h, pageLimit(q.limit), keyColumns, new Date(q.updatedSince));
  }

  private cols(alias: string): string[] {
    const a = alias ? `${alias}.` : '';
    return [`${a}"change_xid"`, ...this.keyColumns.map((c) => `${a}"${c}"`)];
  }

  /** `updated_at >= ?` and, after a cursor, `(change_xid, key…) > (?, …)`; with their values. */
  where(alias: string, updatedAtColumn = 'updated_at'): { sql: string; params: unknown[] } {
    const a = alias ? `${alias}.` : '';
    const parts = [`${a}"${updatedAtColumn}" >= ?`];
    const params: unknown[] = [this.updatedSince];
    if (this.after) {
      parts.push(`(${this.cols(alias).join(', ')}) > (?::xid8${', ?'.repeat(this.keyColumns.length)})`);
      params.push(...this.after);
    }
    return { sql: parts.join(' and '), params };
  }

  /** `change_xid, key…` (ascending), for `order by`. */
  orderBy(alias: string): string {
    return this.cols(alias).join(', ');
  }

  /** The select-list column giving each row's change_xid as text (`"change_xid"` in the result). */
  column(alias: string): string {
    return `${alias ? `${alias}.` : ''}"change_xid"::text as "change_xid"`;
  }

  /**
   * The envelope from the `limit + 1` rows read in this order, with each row's position (its change_xid
   * text and key values): the cursor moves to the page's last row only while that row is below the
   * horizon and more follow; otherwise it stops at the horizon and `hasMore` is false.
   */
  page<R, T>(rows: R[], position: (row: R) => ChangePosition, map: (row: R) => T): ListPage<T> {
    const more = rows.length > this.limit;
    const data = more ? rows.slice(0, this.limit) : rows;
    const horizon = xidOf(this.horizon);
    if (more) {
      const last = position(data[data.length - 1]);
      if (xidOf(last[0]) < horizon) return { data: data.map(map), nextCursor: encodeChangeCursor(last), hasMore: true };
    }
    // caught up with what is committed: go on from the horizon (never back behind the cursor given)
    const resume: ChangePosition = this.after && xidOf(this.after[0]) >= horizon ? this.after : [this.horizon, ...this.keyColumns.map(() => '')];
    return { data: data.map(map), nextCursor: encodeChangeCursor(resume), hasMore: false };
  }
}
