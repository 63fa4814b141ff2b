/**
 * Raw SQL against the ORM, store function by store function. Every raw statement a service keeps
 * names a case of this bench in the comment above it (`bench:sql <case>`, test/layout.test.ts checks
 * the name exists); the case runs the kept statement and the best ORM form of the same work on the
 * same data, interleaved, each call in its own transaction rolled back, and prints the median time of
 * each and the ratio. Both forms must answer the same (checked on the first call of each).
 *
 *   npm run bench:sql [name-prefix…]      (BENCH_SQL_ROUNDS=60; DATABASE_URL: a Postgres to create
 *                                          databases on, else an embedded one in a temporary directory)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Client } from 'pg';
import { createLogger, generateInternalKeyPair, openWork, startService, type RunningService, type ServiceDefinition, type Work } from '@bop/shared';
import { startEmbeddedPostgres } from '@bop/runtime';
import { runBench } from './entry';
import type { SqlCase } from './sql/case';
import { allCases } from './sql/cases';

const ROUNDS = Number(process.env.BENCH_SQL_ROUNDS ?? 60);
const WARMUP = 5;

class Rollback extends Error {}

/** One call of `fn` in a unit whose transaction is rolled back; answers its result and its time in µs. */
async function timedRolledBack(svc: RunningService<any>, fn: (w: Work) => Promise<unknown>): Promise<{ result: unknown; us: number }> {
  const rt = svc.runtime;
  const scope = { schema: rt.schema, clock: rt.clock, log: rt.log, services: rt.services };
  let out: { result: unknown; us: number } | undefined;
  try {
    await rt.orm.em.fork().transactional(async (em) => {
      const { work } = openWork(scope, em, true);
      const t0 = process.hrtime.bigint();
      const result = await fn(work);
      out = { result, us: Number(process.hrtime.bigint() - t0) / 1000 };
      throw new Rollback();
    });
  } catch (err) {
    if (!(err instanceof Rollback)) throw err;
  }
  return out!;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function adminUrl(): Promise<{ url: string; stop(): Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop: async () => undefined };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-sql-'));
  fs.chmodSync(dir, 0o755);
  const db = await startEmbeddedPostgres({ dataDir: dir, log: createLogger('bench-sql', 'warn') });
  return { url: db.url, stop: () => db.stop() };
}

async function withDatabase<T>(admin: string, fn: (url: string) => Promise<T>): Promise<T> {
  const name = `bench_sql_${Date.now().toString(36)}`;
  const c = new Client({ connectionString: admin });
  await c.connect();
  await c.query(`create database "${name}"`);
  const u = new URL(admin);
  u.pathname = `/${name}`;
  try {
    return await fn(u.toString());
  } finally {
    await c.query(`drop database if exists "${name}" with (force)`);
    await c.end();
  }
}

async function main(): Promise<void> {
  const prefixes = process.argv.slice(2);
  const cases = allCases.filter((c) => prefixes.length === 0 || prefixes.some((p) => c.name.startsWith(p)));
  if (cases.length === 0) throw new Error(`no case named ${prefixes.join(', ')}`);
  const byService = new Map<ServiceDefinition<any>, SqlCase[]>();
  for (const c of cases) byService.set(c.service, [...(byService.get(c.service) ?? []), c]);
  const admin = await adminUrl();
  const keys = await generateInternalKeyPair();
  console.log(`bench:sql — ${ROUNDS} rounds a case, each call in a transaction rolled back; median µs a call`);
  console.log(`${'case'.padEnd(44)} ${'raw µs'.padStart(9)} ${'ORM µs'.padStart(9)} ${'ORM/raw'.padStart(8)}  what`);
  let failed = false;
  try {
    for (const [def, list] of byService) {
      await withDatabase(admin.url, async (databaseUrl) => {
        const svc = await startService(def, {
          databaseUrl,
          internalPublicKeyPem: keys.publicKeyPem,
          port: 0,
          host: '127.0.0.1',
          relay: false,
          workers: false,
          env: { LOG_LEVEL: 'silent' },
          logger: createLogger(def.name, 'silent'),
        });
        try {
          for (const c of list) await c.seed((fn) => svc.runtime.write(fn));
          await svc.runtime.orm.em.getConnection().execute('analyze');
          for (const c of list) {
            const first = [await timedRolledBack(svc, c.raw), await timedRolledBack(svc, c.orm)];
            const same = c.same ? c.same(first[0].result, first[1].result) : isDeepStrictEqual(JSON.parse(JSON.stringify(first[0].result ?? null)), JSON.parse(JSON.stringify(first[1].result ?? null)));
            const raw: number[] = [];
            const orm: number[] = [];
            for (let i = 0; i < WARMUP + ROUNDS; i++) {
              // alternate which form goes first, so neither always meets the warmer cache
              const pair = i % 2 === 0 ? [c.raw, c.orm] : [c.orm, c.raw];
              const a = await timedRolledBack(svc, pair[0]);
              const b = await timedRolledBack(svc, pair[1]);
              if (i < WARMUP) continue;
              (i % 2 === 0 ? raw : orm).push(a.us);
              (i % 2 === 0 ? orm : raw).push(b.us);
            }
            const r = median(raw);
            const o = median(orm);
            console.log(`${c.name.padEnd(44)} ${r.toFixed(0).padStart(9)} ${o.toFixed(0).padStart(9)} ${(o / r).toFixed(2).padStart(7)}×  ${c.what}${same ? '' : '  ** answers differ **'}`);
            if (!same) failed = true;
          }
        } finally {
          await svc.close();
        }
      });
    }
  } finally {
    await admin.stop();
  }
  if (failed) throw new Error('a case\'s two forms answered differently (marked ** above)');
}

runBench(main);
