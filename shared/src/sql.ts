import type { EntityManager } from '@mikro-orm/postgresql';
import { decodeCursor } from './pagination';

/**
 * A list of values bound as ONE parameter, as a Postgres array literal: `"id" = any(?::text[])` with
 * `sqlList(ids)` (cast to `::date[]`, `::int[]`… as the column needs). One bound value whatever the
 * list's length, so statements stay the same text (plan cache) and no placeholder list is built.
 * A null stands as SQL NULL (which `= any(…)` never matches).
 */
export function sqlList(values: readonly (string | number | null)[]): string {
  return `{${values.map((v) => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`)).join(',')}}`;
}

/**
 * A `where` clause built from optional filters, each with its own bound values (`?` placeholders).
 * `toString()` gives `where a and b` (or an empty string); `params` the values in order.
 */
export class SqlWhere {
  private readonly parts: string[] = [];
  readonly params: unknown[] = [];

  /** Adds `sql` (with as many `?` as values) to the conjunction. */
  and(sql: string, ...values: unknown[]): this {
    this.parts.push(sql);
    this.params.push(...values);
    return this;
  }

  /** Adds `sql` when `value` is given (not undefined, null or ''), bound to it. */
  andIf(value: unknown, sql: string): this {
    if (value !== undefined && value !== null && value !== '') this.and(sql, value);
    return this;
  }

  /** Adds `column = any(?::text[])` when `values` is given (a null list means no restriction). */
  andIn(column: string, values: readonly string[] | null | undefined, cast = 'text'): this {
    if (values) this.and(`${column} = any(?::${cast}[])`, sqlList(values));
    return this;
  }

  /** Keyset pagination: rows after the cursor's id (ids sort by creation time). */
  after(column: string, cursor: string | undefined | null): this {
    const last = decodeCursor(cursor ?? undefined);
    if (last) this.and(`${column} > ?`, last);
    return this;
  }

  get empty(): boolean {
    return this.parts.length === 0;
  }

  toString(): string {
    return this.parts.length === 0 ? '' : `where ${this.parts.join(' and ')}`;
  }
}

/** The key expression of the scheme, for SQL that takes a lock itself (a trigger, a session-level lock): `advisoryKeySql('$1')` with the key as `$1`. */
export const advisoryKeySql = (param: string): string => `hashtextextended(${param}, 0)`;

/**
 * Transaction-level advisory locks, one key scheme for the whole platform: the 64-bit
 * `hashtextextended(key, 0)` of a key named `<area>.<what>[ <id>]`, the area being a service or a
 * part of the kit (e.g. `inventory.items ext-1`; the kit's own: `<schema>.migrations`, `<schema>.relay`,
 * `bus.schema`, `bus.append`).
 * Held until the transaction ends; `em` must be in one. Several keys are taken in sorted order, so
 * two transactions locking overlapping sets never deadlock.
 */
export async function lockForTransaction(em: EntityManager, keys: string | readonly string[], opts: { shared?: boolean } = {}): Promise<void> {
  const fn = opts.shared ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  const list = typeof keys === 'string' ? [keys] : [...new Set(keys)].sort();
  if (list.length === 0) return;
  const q =
    list.length === 1
      ? em.getKnex().raw(`select ${fn}(${advisoryKeySql('?')})`, [list[0]])
      : em.getKnex().raw(`select ${fn}(${advisoryKeySql('k')}) from unnest(?::text[]) with ordinality as t(k, n) order by n`, [sqlList(list)]);
  const trx = em.getTransactionContext();
  if (!trx) throw new Error(`advisory lock ${list.join(', ')} taken outside a transaction`);
  await q.transacting(trx);
}


/** `items` in pieces of at most `size`, in order: rows or keys for one statement each (none for no items). */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Rows per delete statement of a retention pass (the outbox's, the Postgres bus's). */
export const PRUNE_CHUNK = 10_000;

/**
 * A retention pass: `chunk` deletes at most `limit` rows (the oldest) and answers how many; it runs
 * again until one deletes fewer, so no statement holds locks on more than a chunk. Answers the total.
 */
export async function deleteInChunks(chunk: (limit: number) => Promise<number>): Promise<number> {
  let deleted = 0;
  for (;;) {
    const n = await chunk(PRUNE_CHUNK);
    deleted += n;
    if (n < PRUNE_CHUNK) return deleted;
  }
}
