import { IsolationLevel, MikroORM, type EntitySchema, type EventSubscriber, type Options } from '@mikro-orm/core';
import { PostgreSqlDriver, type EntityManager } from '@mikro-orm/postgresql';
import { Migrator, Migration } from '@mikro-orm/migrations';
import type { MigrationObject } from '@mikro-orm/core';
import { serviceTable } from '@bop/contracts';
import { defineOutbox } from './outbox';
import { replicaEntitiesFor } from './replica-entities';
import { kitTablesSql } from './kit-tables';
import { advisoryKeySql } from './sql';

export { Migration };
export type { EntityManager };
export type MigrationEntry = MigrationObject;

export interface OrmOptions {
  schema: string;
  clientUrl: string;
  entities: EntitySchema<any, any>[];
  migrations: MigrationEntry[];
  poolMax?: number;
  debug?: boolean;
}

export type Orm = MikroORM<PostgreSqlDriver>;

/** One MikroORM per service schema; other schemas are ignored so one service's diff never touches another's tables. */
export async function createOrm(opts: OrmOptions): Promise<Orm> {
  const otherSchemas = [...Object.values(serviceTable).map((s) => s.schema), 'gateway', 'bus', 'public'].filter(
    (s) => s !== opts.schema,
  );
  const config: Options<PostgreSqlDriver> = {
    driver: PostgreSqlDriver,
    clientUrl: opts.clientUrl,
    schema: opts.schema,
    entities: [...opts.entities, defineOutbox(opts.schema), ...replicaEntitiesFor(opts.entities)],
    discovery: { warnWhenNoEntities: false },
    // at least 2: `migrate` holds one connection for its advisory lock while the migrator uses another
    // JIT off on every connection: Postgres compiles a statement costed over jit_above_cost, and GET /kpis'
    // sums (50 locations × 90 days) took 1,938 ms with JIT against 194 ms without (bench:sql insights.kpi-sums,
    // Debian's PostgreSQL 15); no statement of ours runs long enough to win it back
    pool: {
      min: 0,
      max: Math.max(2, opts.poolMax ?? 5),
      idleTimeoutMillis: 10_000,
      afterCreate: (conn: { query(sql: string, cb: (err: Error | null) => void): void }, done: (err: Error | null, conn: unknown) => void) => conn.query('set jit = off', (err) => done(err, conn)),
    },
    // knex listens for each connection's `error` (a dropped connection is marked and discarded, never
    // an unhandled event); a connect that hangs (an unreachable host) fails after 5 s, as an outage
    driverOptions: { connection: { application_name: `bop-${opts.schema}`, connectionTimeoutMillis: 5000 } },
    forceUtcTimezone: true,
    allowGlobalContext: false,
    debug: opts.debug ?? false,
    ensureDatabase: false,
    migrations: {
      tableName: 'mikro_orm_migrations',
      migrationsList: opts.migrations,
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
    schemaGenerator: { ignoreSchema: otherSchemas },
    extensions: [Migrator],
  };
  const orm = await MikroORM.init<PostgreSqlDriver>(config);
  orm.em.getEventManager().registerSubscriber(afterCommitHooks);
  return orm;
}

/** Runs pending migrations under an advisory lock, so replicas starting together migrate once. */
export async function migrate(orm: Orm, schema: string): Promise<string[]> {
  const knex = orm.em.getConnection().getKnex();
  const conn = await knex.client.acquireConnection();
  const key = `${schema}.migrations`;
  try {
    await conn.query(`select pg_advisory_lock(${advisoryKeySql('$1')})`, [key]);
    try {
      await conn.query(`create schema if not exists "${schema}"`);
      for (const sql of kitTablesSql(schema)) await conn.query(sql);
      const done = await orm.getMigrator().up();
      return done.map((m) => m.name);
    } finally {
      await conn.query(`select pg_advisory_unlock(${advisoryKeySql('$1')})`, [key]);
    }
  } finally {
    await knex.client.releaseConnection(conn);
  }
}

export async function pendingMigrations(orm: Orm): Promise<string[]> {
  const pending = await orm.getMigrator().getPendingMigrations();
  return pending.map((m) => m.name);
}

/**
 * SQL with bound parameters (`?` placeholders, sent to Postgres as $1…), on the em's transaction when
 * it is in one. `em.execute` inlines parameters into the SQL text with client-side escaping, which
 * costs more than the query itself for large JSON payloads (batch ingestion); use this on hot paths.
 */
export async function sqlQuery<T = Record<string, any>>(em: EntityManager, sql: string, params: readonly unknown[] = []): Promise<T[]> {
  const query = em.getKnex().raw(sql, params as any[]);
  const trx = em.getTransactionContext();
  if (trx) query.transacting(trx);
  const res = (await query) as { rows: T[] };
  return res.rows;
}

/**
 * A read made of several statements that must agree with each other (rows, and the marks saying
 * whether their figures are current): one read-only REPEATABLE READ transaction, so every statement
 * sees the same snapshot. Under the default READ COMMITTED each statement sees what committed before
 * it, and a worker committing between two of them pairs old rows with new marks.
 */
export async function readSnapshot<T>(em: EntityManager, work: (tem: EntityManager) => Promise<T>): Promise<T> {
  return em.transactional((tem) => work(tem), { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true });
}

/** a knex transaction (MikroORM's transaction context): a nested one (a savepoint) names its parent */
interface KnexTransaction {
  parentTransaction?: KnexTransaction;
}

/** what runs when a root transaction commits (afterCommit), by the transaction */
const committed = new WeakMap<object, Array<() => void>>();

/** MikroORM's transaction events, on every ORM the kit makes: runs or drops what waits on a root transaction */
const afterCommitHooks: EventSubscriber = {
  afterTransactionCommit({ transaction }) {
    const waiting = transaction ? committed.get(transaction as object) : undefined;
    if (!waiting) return;
    committed.delete(transaction as object);
    for (const fn of waiting) {
      try {
        fn();
      } catch {
        // what runs after a commit (a metric) never fails the request that committed
      }
    }
  },
  afterTransactionRollback({ transaction }) {
    if (transaction) committed.delete(transaction as object);
  },
};

/**
 * Runs `fn` once what `em` wrote is committed: when the outermost transaction `em` is in commits (a
 * savepoint's release is not a commit), or now when `em` is in none. When that transaction rolls back,
 * or is run again after losing a race (writeTransaction), `fn` never runs for it: a counter of stored
 * records counts each record once, and only records that were stored.
 */
export function afterCommit(em: EntityManager, fn: () => void): void {
  let trx = em.getTransactionContext<KnexTransaction>();
  if (!trx) {
    fn();
    return;
  }
  while (trx.parentTransaction) trx = trx.parentTransaction;
  const waiting = committed.get(trx);
  if (waiting) waiting.push(fn);
  else committed.set(trx, [fn]);
}
