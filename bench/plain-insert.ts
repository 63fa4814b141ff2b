import { Client } from 'pg';

/**
 * The baseline of the ingestion benches: rows a service stored, read back as text and inserted again
 * with plain multi-row `INSERT … VALUES` of `size` rows over one pg connection into a new table like
 * the service's own (`like … including all`: the same columns, keys and indexes), after a checkpoint.
 * Answers the rows inserted and the rate (rows/s).
 */
export async function plainInsertRate(pgPort: number, opts: { select: string; params?: unknown[]; like: string; size: number }): Promise<{ rows: number; rate: number }> {
  const pg = new Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${pgPort}/bop`, types: { getTypeParser: () => (v: string) => v } });
  pg.on('error', () => {});
  await pg.connect();
  try {
    const stored = await pg.query(opts.select, opts.params ?? []);
    const cols = stored.fields.map((f) => f.name);
    const table = `bench_plain_${opts.like.replace(/\W+/g, '_')}`;
    await pg.query(`create table ${table} (like ${opts.like} including all)`);
    await pg.query('checkpoint');
    const t0 = performance.now();
    for (let i = 0; i < stored.rows.length; i += opts.size) {
      const rows = stored.rows.slice(i, i + opts.size) as Array<Record<string, string>>;
      const params: string[] = [];
      const tuples = rows.map((r) => `(${cols.map((c) => `$${params.push(r[c])}`).join(', ')})`);
      await pg.query(`insert into ${table} (${cols.map((c) => `"${c}"`).join(', ')}) values ${tuples.join(', ')}`, params);
    }
    return { rows: stored.rows.length, rate: stored.rows.length / ((performance.now() - t0) / 1000) };
  } finally {
    await pg.end();
  }
}
