import { Client, Pool, type PoolClient } from 'pg';
import type { Logger } from '../logger';
import type { Bus, BusMessage, ConsumedMessage, OutboxMove, SubscribeOptions, Subscription } from './types';
import { Waker } from '../waker';
import { handlePoolErrors } from '../pg-clients';
import { isDatabaseUnavailable } from '../db-faults';
import { backoffDelay, busBackoff } from '../retry';
import { advisoryKeySql, deleteInChunks } from '../sql';

const CHANNEL = 'bus_messages';
/** Advisory lock keys of the bus (the kit's one key scheme, `<area>.<what>`): its DDL, and appends (positions in commit order). */
const SCHEMA_LOCK = 'bus.schema';
const APPEND_LOCK = 'bus.append';
const PRUNE_LOCK = 'bus.prune';
const lockKey = advisoryKeySql('$1');

/** Messages per insert statement (6 parameters each, far below Postgres' 65,535). */
const MESSAGES_PER_INSERT = 1000;

/** Turns a `payload` column created as jsonb into json, once (a no-op when it already is json). */
export function jsonPayloadSql(schema: string, table: string): string {
  return `do $$ begin
    if exists (select 1 from information_schema.columns where table_schema = '${schema}' and table_name = '${table}' and column_name = 'payload' and data_type = 'jsonb') then
      alter table "${schema}"."${table}" alter column "payload" type json using "payload"::json;
    end if;
  end $$`;
}

/** DDL of the `bus` schema (idempotent; run on every start under an advisory lock). */
export const busSchemaSql = [
  `create schema if not exists "bus"`,
  `create table if not exists "bus"."messages" (
    "position" bigserial primary key,
    "topic" varchar(60) not null,
    "key" varchar(100) not null,
    "event_id" varchar(40) not null,
    "type" varchar(100) not null,
    "payload" json not null,
    "headers" jsonb not null default '{}',
    "published_at" timestamptz not null default now()
  )`,
  `create index if not exists "messages_topic_position_idx" on "bus"."messages" ("topic", "position")`,
  // payloads are kept as sent (json, not jsonb): written and read whole, never queried inside; parsing
  // large event payloads into jsonb cost more than the rest of the append (a database made before keeps working)
  jsonPayloadSql('bus', 'messages'),
  `create table if not exists "bus"."positions" (
    "group_id" varchar(120) primary key,
    "position" bigint not null default 0,
    "updated_at" timestamptz not null default now()
  )`,
];

export interface PostgresBusOptions {
  connectionString: string;
  log: Logger;
  /** how often an idle subscription looks for messages when no notification came (ms) */
  pollMs?: number;
  poolMax?: number;
}

/**
 * The `postgres` adapter: a topic log in the `bus` schema with one position per consumer group.
 * Appends take a transaction-level advisory lock, so positions are handed out in commit order and a
 * reader that has seen position N can never later find a smaller one committing: nothing is skipped.
 * NOTIFY (sent at commit) wakes subscribers; a poll covers lost notifications.
 */
export async function createPostgresBus(opts: PostgresBusOptions): Promise<Bus> {
  const pool = handlePoolErrors(new Pool({ connectionString: opts.connectionString, max: opts.poolMax ?? 4, application_name: 'bop-bus' }), opts.log, 'bus');
  const client = await pool.connect();
  try {
    await client.query(`select pg_advisory_lock(${lockKey})`, [SCHEMA_LOCK]);
    try {
      for (const sql of busSchemaSql) await client.query(sql);
    } finally {
      await client.query(`select pg_advisory_unlock(${lockKey})`, [SCHEMA_LOCK]);
    }
  } finally {
    client.release();
  }
  return new PostgresBus(pool, opts);
}

class PostgresBus implements Bus {
  readonly kind = 'postgres' as const;
  private readonly subscriptions = new Set<PgSubscription>();
  private listener: Client | null = null;
  private listenerReady: Promise<void> | null = null;
  private listenerRetry: NodeJS.Timeout | null = null;
  /** set once a listener connected: the next one is a reconnection */
  private listenerConnectedBefore = false;
  private closed = false;

  constructor(
    private readonly pool: Pool,
    private readonly opts: PostgresBusOptions,
  ) {}

  /** The log's head less each group's position (a group moves past topics it does not read on its next read). */
  async groupLag(groups: string[]): Promise<Array<{ group: string; lag: number }>> {
    const { rows } = await this.pool.query<{ group_id: string; lag: string }>(
      `select p."group_id", greatest(0, coalesce((select max("position") from "bus"."messages"), 0) - p."position") as "lag"
       from "bus"."positions" p where p."group_id" = any($1::text[])`,
      [groups],
    );
    return rows.map((r) => ({ group: r.group_id, lag: Number(r.lag) }));
  }

  async forget(group: string): Promise<void> {
    await this.pool.query(`delete from "bus"."positions" where "group_id" = $1`, [group]);
  }

  async prune(retentionMs: number): Promise<number> {
    return deleteInChunks((limit) =>
      this.inTransaction(async (client) => {
        const { rows: lock } = await client.query<{ ok: boolean }>(`select pg_try_advisory_xact_lock(${lockKey}) as ok`, [PRUNE_LOCK]);
        if (lock[0]?.ok) {
          // a group whose position has not moved within the retention is gone (a removed consumer, a
          // crashed instance's own group): it holds nothing back
          const { rowCount } = await client.query(
            `delete from "bus"."messages" where "position" in (
               select "position" from "bus"."messages"
               where "published_at" < now() - make_interval(secs => $1::double precision / 1000)
                 and "position" <= coalesce(
                   (select min("position") from "bus"."positions" where "updated_at" > now() - make_interval(secs => $1::double precision / 1000)),
                   (select max("position") from "bus"."messages"))
               order by "position" limit $2)`,
            [retentionMs, limit],
          );
          return rowCount ?? 0;
        }
        return 0;
      }),
    );
  }

  async appendFromOutbox(source: { connectionString: string; schema: string; topic: string; limit: number }): Promise<OutboxMove | null> {
    if (source.connectionString !== this.opts.connectionString) return null;
    const outbox = `"${source.schema.replace(/"/g, '""')}"."outbox"`;
    const limit = Math.max(1, Math.floor(source.limit));
    const client = await this.pool.connect();
    try {
      // one round trip: the relay shares its thread with its service, and under load each round trip
      // waited a turn of that thread's event loop (the move itself takes milliseconds)
      const results = (await client.query(
        `begin;
         -- the move commits without waiting for its WAL flush: a move lost in a crash leaves its outbox
         -- rows unpublished (moved again, consumers dedupe by event id), and a consumer that saw a moved
         -- message commits its own handling synchronously, which flushes this commit first; the oldest
         -- unpublished rows are read in order from the partial index however stale the statistics (as a
         -- bitmap scan of every unpublished row plus a sort, a move grew with the backlog: 28 ms for
         -- 500 rows with 55,000 behind, and the relay fell further behind)
         select set_config('synchronous_commit', 'off', true), set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true),
                set_config('enable_sort', 'off', true), pg_advisory_xact_lock(${advisoryKeySql(client.escapeLiteral(APPEND_LOCK))});
         -- copied and marked in one transaction: each outbox row reaches the bus exactly once, in seq
         -- order (the append lock lets one move run at a time, so the rows need no row lock of their own)
         with picked as (
           update ${outbox} o set "published_at" = now()
           where o."seq" in (select "seq" from ${outbox} where "published_at" is null order by "seq" limit ${limit})
           returning o."seq", o."event_id", o."type", o."aggregate_id", o."payload", o."trace_parent"
         ), moved as (
           insert into "bus"."messages" ("topic", "key", "event_id", "type", "payload", "headers")
           select ${client.escapeLiteral(source.topic)}, p."aggregate_id", p."event_id", p."type", p."payload",
                  case when p."trace_parent" is null then '{}'::jsonb else jsonb_build_object('traceparent', p."trace_parent") end
           from picked p order by p."seq"
           returning 1
         ), notified as (
           select pg_notify('${CHANNEL}', ${client.escapeLiteral(source.topic)}) where exists (select 1 from picked)
         )
         select (select count(*) from moved) as "moved", (select count(*) from notified) as "notified",
                (select json_agg(json_build_array(p."event_id", p."type", p."trace_parent")) from picked p where p."trace_parent" like '%-01') as "traced";
         commit;`,
      )) as unknown as Array<{ rows: Array<{ moved: string; traced: Array<[string, string, string]> | null }> }>;
      const row = results.find((r) => r.rows?.[0] && 'moved' in r.rows[0])?.rows[0];
      return { moved: Number(row?.moved ?? 0), traced: (row?.traced ?? []).map(([eventId, type, traceParent]) => ({ eventId, type, traceParent })) };
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async publish(messages: BusMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await this.inTransaction(async (client) => {
      // spec: commit order = position order, so no reader skips a late-committing row
      await client.query(`select pg_advisory_xact_lock(${lockKey})`, [APPEND_LOCK]);
      // bound parameters per message, the payload as text into a `json` column: no jsonb parsing, and no
      // jsonb[] array literal (node-pg escapes those character by character)
      for (let start = 0; start < messages.length; start += MESSAGES_PER_INSERT) {
        const chunk = messages.slice(start, start + MESSAGES_PER_INSERT);
        const params: unknown[] = [];
        for (const m of chunk) params.push(m.topic, m.key, m.eventId, m.type, JSON.stringify(m.payload), JSON.stringify(m.headers ?? {}));
        const values = chunk.map((_, i) => `($${i * 6 + 1}, $${i * 6 + 2}, $${i * 6 + 3}, $${i * 6 + 4}, $${i * 6 + 5}::json, $${i * 6 + 6}::jsonb)`);
        await client.query(`insert into "bus"."messages" ("topic", "key", "event_id", "type", "payload", "headers") values ${values.join(', ')}`, params);
      }
      // the topics appended (subscriptions of other topics are not woken)
      await client.query(`select pg_notify('${CHANNEL}', $1)`, [[...new Set(messages.map((m) => m.topic))].join(',')]);
    });
  }

  /** `work` in one transaction on a pooled connection: committed when it resolves, rolled back when it throws. */
  private async inTransaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      const result = await work(client);
      await client.query('commit');
      return result;
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    if (this.closed) throw new Error('bus closed');
    await this.ensureListener();
    await this.pool.query(
      options.startAt === 'latest'
        ? `insert into "bus"."positions" ("group_id", "position") values ($1, coalesce((select max("position") from "bus"."messages"), 0)) on conflict do nothing`
        : `insert into "bus"."positions" ("group_id") values ($1) on conflict do nothing`,
      [options.group],
    );
    const sub = new PgSubscription(this.pool, options, this.opts, () => this.subscriptions.delete(sub));
    this.subscriptions.add(sub);
    sub.start();
    return sub;
  }

  /**
   * One LISTEN connection per bus wakes every subscription. When it drops (or cannot connect: the
   * database is down) the subscriptions poll and it is retried every second; once it is back every
   * subscription is woken, as notifications sent meanwhile were lost.
   */
  private ensureListener(): Promise<void> {
    this.listenerReady ??= this.connectListener().catch((err: unknown) => {
      this.listenerReady = null;
      this.retryListener();
      throw err;
    });
    return this.listenerReady;
  }

  private retryListener(): void {
    if (this.closed || this.listenerRetry) return;
    this.listenerRetry = setTimeout(() => {
      this.listenerRetry = null;
      void this.ensureListener().catch(() => undefined);
    }, 1000);
    this.listenerRetry.unref();
  }

  private async connectListener(): Promise<void> {
    const client = new Client({ connectionString: this.opts.connectionString, application_name: 'bop-bus-listen' });
    let lost = false;
    // the payload names the topics appended (comma-separated); an empty one wakes every subscription
    client.on('notification', (msg) => {
      const topics = msg.payload ? msg.payload.split(',') : null;
      for (const s of this.subscriptions) if (topics === null || s.reads(topics)) s.wake();
    });
    // a dropped connection emits `error` (more than once: the server's message, then the socket's end)
    client.on('error', (err) => {
      if (lost) return;
      lost = true;
      if (this.listener === client) {
        this.opts.log.warn({ err: err.message }, 'bus listener lost; polling until it is back');
        this.listener = null;
        this.listenerReady = null;
      }
      void client.end().catch(() => undefined);
      this.retryListener();
    });
    const reconnect = this.listenerConnectedBefore;
    await client.connect();
    await client.query(`listen ${CHANNEL}`);
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.listener = client;
    this.listenerConnectedBefore = true;
    if (reconnect) {
      this.opts.log.info('bus listener back');
      for (const s of this.subscriptions) s.wake();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.listenerRetry) clearTimeout(this.listenerRetry);
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.listener?.end().catch(() => undefined);
    await this.pool.end();
  }
}

class PgSubscription implements Subscription {
  private stopped = false;
  private readonly waker = new Waker();
  private loop: Promise<void> | null = null;
  private failures = 0;

  constructor(
    private readonly pool: Pool,
    private readonly options: SubscribeOptions,
    private readonly busOpts: PostgresBusOptions,
    private readonly onStop: () => void,
  ) {}

  start(): void {
    this.loop = this.run();
  }

  wake(): void {
    this.waker.wake();
  }

  /** Whether this subscription reads any of these topics. */
  reads(topics: string[]): boolean {
    return this.options.topics.includes('*') || topics.some((t) => this.options.topics.includes(t));
  }

  private async run(): Promise<void> {
    const all = this.options.topics.includes('*');
    const limit = this.options.batchSize ?? 200;
    while (!this.stopped) {
      let handled = 0;
      try {
        handled = await this.fetchAndHandle(all, limit);
        this.failures = 0;
      } catch (err) {
        this.failures += 1;
        this.options.onError?.(err);
        await this.waker.sleep(backoffDelay(this.failures, busBackoff, isDatabaseUnavailable(err)));
        continue;
      }
      if (handled < limit) {
        // a consumer that works in bulk lets a burst gather into its next batch (not woken by new messages)
        if (handled > 0 && this.options.settleMs) {
          await this.pause(this.options.settleMs);
          continue;
        }
        await this.waker.sleep(this.busOpts.pollMs ?? 1000);
      }
    }
  }

  /**
   * One batch after the group's position; the position moves only when the handler resolved. Reads
   * are bounded by the log's current end, so a group that filters topics or types moves past the
   * rows it skips instead of scanning them again on every poll.
   */
  private async fetchAndHandle(all: boolean, limit: number): Promise<number> {
    const { rows: pos } = await this.pool.query<{ position: string; head: string | null }>(
      `select p."position", (select max("position") from "bus"."messages") as "head" from "bus"."positions" p where p."group_id" = $1`,
      [this.options.group],
    );
    const after = pos[0]?.position ?? '0';
    const head = pos[0]?.head ?? '0';
    if (BigInt(head) <= BigInt(after)) return 0;
    const params: unknown[] = [after, head, limit];
    let filter = '';
    let types = this.options.types;
    if (this.options.typesNow) {
      // after the end was read: a type wanted from now on only concerns messages appended later
      const now = new Set(await this.options.typesNow());
      types = types ? types.filter((t) => now.has(t)) : [...now];
      if (types.length === 0) {
        await this.moveTo(head);
        return 0;
      }
    }
    if (types) {
      params.push(types);
      filter += ` and "type" = any($${params.length})`;
    }
    const columns = `"position", "topic", "key", "event_id", "type", "payload", "headers"`;
    const range = `"position" > $1 and "position" <= $2${filter}`;
    // One ordered scan of the (topic, position) index per topic, merged: with `"topic" = any(…)` the
    // index cannot hand rows in position order, and a group 60,000 behind read and sorted all of them
    // for each batch of 200 (34 ms a batch; bench/bus.ts's 100,000-event run fell 30 s behind).
    const sql = all
      ? `select ${columns} from "bus"."messages" where ${range} order by "position" limit $3`
      : `select ${columns} from (${[...new Set(this.options.topics)]
          .map((topic) => {
            params.push(topic);
            return `(select ${columns} from "bus"."messages" where "topic" = $${params.length} and ${range} order by "position" limit $3)`;
          })
          .join(' union all ')}) m order by "position" limit $3`;
    const { rows } = await this.pool.query(sql, params);
    const batch: ConsumedMessage[] = rows.map((r) => ({
      position: String(r.position),
      topic: r.topic,
      key: r.key,
      eventId: r.event_id,
      type: r.type,
      payload: r.payload,
      headers: r.headers,
    }));
    if (batch.length > 0) await this.options.handler(batch);
    // a full batch ends at its last row; a short one covered everything up to the head
    const reached = batch.length === limit ? batch[batch.length - 1].position : head;
    await this.moveTo(reached);
    return batch.length;
  }

  /**
   * Moves the group's position (never back). Without waiting for the WAL flush: a position lost in a
   * crash only means messages read again, which the handlers' processed events make no-ops.
   */
  private async moveTo(position: string): Promise<void> {
    await this.pool.query(
      `update "bus"."positions" set "position" = greatest("position", $2::bigint), "updated_at" = now()
       where "group_id" = $1 and (select set_config('synchronous_commit', 'off', true)) is not null`,
      [this.options.group, position],
    );
  }

  private pausing: (() => void) | null = null;

  /** Sleeps `ms`, cut short only by stop. */
  private pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.pausing = null;
        resolve();
      }, ms);
      this.pausing = () => {
        clearTimeout(timer);
        this.pausing = null;
        resolve();
      };
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.pausing?.();
    this.wake();
    await this.loop;
    if (this.options.startAt === 'latest') {
      await this.pool.query(`delete from "bus"."positions" where "group_id" = $1`, [this.options.group]).catch(() => undefined);
    }
    this.onStop();
  }
}

export type { PoolClient };
