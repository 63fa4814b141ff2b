import { Client } from 'pg';
import type { Logger } from './logger';
import type { Bus, BusMessage } from './bus/types';
import { parsePayload } from './bus/payload-text';
import { Waker } from './waker';
import { isDatabaseUnavailable } from './db-faults';
import { handleClientErrors } from './pg-clients';
import { backoffDelay, relayBackoff } from './retry';
import { advisoryKeySql, deleteInChunks } from './sql';
import { countIf, metrics } from './telemetry/metrics';
import { SpanKind, startSpan, type Span } from './telemetry/trace-context';

export interface RelayOptions {
  /** the service's schema (its outbox) */
  schema: string;
  /** topic = the service's area */
  topic: string;
  connectionString: string;
  bus: Bus;
  log: Logger;
  batchSize?: number;
  /** fallback poll when no NOTIFY arrives (ms) */
  pollMs?: number;
  /** how long a non-leader waits before trying to become leader (ms) */
  standbyMs?: number;
  /**
   * What the leader deletes, every `checkMs`: its outbox rows published more than `outboxMs` ago,
   * and (through the bus, when it keeps messages itself) messages older than `busMs` that every
   * active consumer group has read. Unset: nothing is deleted.
   */
  retention?: { outboxMs: number; busMs: number; checkMs: number };
}

/** While behind, a batch grows to at most this many times the configured size. */
const RELAY_MAX_GROWTH = 8;

/**
 * Publishes a service's outbox to the bus in `seq` order (spec: ingestion rule 11, events never lost).
 * One leader per service (session advisory lock on its own connection; if that connection dies the
 * lock goes with it and another replica takes over). Rows are marked published only after the bus
 * acknowledged them, so a crash or a bus outage re-sends rather than loses (consumers dedupe by id).
 * Events of one record stay in order because writers lock the record's row before writing its event.
 */
export class Relay {
  private client: Client | null = null;
  private stopped = false;
  private readonly waker = new Waker();
  private loop: Promise<void> | null = null;
  private leader = false;
  /** rows published since start (tests and status) */
  published = 0;
  /** tries to take the lead since start, successful or not (tests and status) */
  leadAttempts = 0;
  /** when the leader last deleted what the retention lets go (0: not yet) */
  private prunedAt = 0;
  /** rows asked for by the next batch: the configured size, larger while behind */
  private limit: number;

  constructor(private readonly opts: RelayOptions) {
    this.limit = opts.batchSize ?? 500;
  }

  start(): void {
    this.loop = this.run();
  }

  get isLeader(): boolean {
    return this.leader;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      let n = 0;
      try {
        if (!this.leader) {
          await this.tryLead();
          if (!this.leader) {
            await this.waker.sleep(this.opts.standbyMs ?? 2000);
            continue;
          }
        }
        n = await this.publishBatch();
      } catch (err) {
        failures += 1;
        const outage = isDatabaseUnavailable(err);
        // an outage is logged when it starts and then every 30th try, not every two seconds
        if (!outage || failures === 1 || failures % 30 === 0) {
          this.opts.log.warn({ err: (err as Error).message, failures, outage }, 'relay: publishing failed; retrying');
        }
        if (this.client === null || !(await this.alive())) await this.dropConnection();
        await this.waker.sleep(backoffDelay(failures, relayBackoff, outage));
        continue;
      }
      if (failures > 0) this.opts.log.info({ failures }, 'relay: publishing again');
      failures = 0;
      await this.pruneIfDue();
      // behind (a full batch): the next batch is twice as large, up to RELAY_MAX_GROWTH times the
      // configured size, so a backlog drains in fewer, larger moves; caught up, back to the size
      const base = this.opts.batchSize ?? 500;
      const full = n >= this.limit;
      this.limit = full ? Math.min(this.limit * 2, base * RELAY_MAX_GROWTH) : base;
      if (!full) await this.waker.sleep(this.opts.pollMs ?? 1000);
    }
  }

  private async tryLead(): Promise<void> {
    if (!this.client) {
      const client = new Client({
        connectionString: this.opts.connectionString,
        application_name: `bop-relay-${this.opts.schema}`,
        // the oldest unpublished rows read in order from the partial index whatever the statistics say:
        // planned as a bitmap scan of every unpublished row plus a sort, a pick cost more the further
        // behind the relay was (as the Postgres bus's move, bus/postgres.ts)
        options: '-c enable_bitmapscan=off -c enable_sort=off',
      });
      // the lock went with the connection: lead again (or let another replica) once it is back
      handleClientErrors(client, this.opts.log, `relay ${this.opts.schema}`, () => {
        if (this.client === client) void this.dropConnection();
      });
      client.on('notification', () => this.wake());
      await client.connect();
      this.client = client;
    }
    this.leadAttempts += 1;
    const { rows } = await this.client.query<{ ok: boolean }>(`select pg_try_advisory_lock(${advisoryKeySql('$1')}) as ok`, [`${this.opts.schema}.relay`]);
    if (rows[0]?.ok) {
      await this.client.query(`listen "outbox_${this.opts.schema}"`);
      this.leader = true;
      this.opts.log.info({ schema: this.opts.schema }, 'relay: leading');
    }
  }

  private async publishBatch(): Promise<number> {
    const limit = this.limit;
    const started = new Date();
    const move = await this.opts.bus.appendFromOutbox?.({ connectionString: this.opts.connectionString, schema: this.opts.schema, topic: this.opts.topic, limit });
    if (move !== undefined && move !== null) {
      // the rows moved inside the database: their publish spans are known only afterwards
      for (const t of move.traced) this.publishSpan(t.type, t.eventId, t.traceParent, started).end();
      this.published += move.moved;
      countIf(metrics.relayPublished, { service: this.opts.topic }, move.moved);
      return move.moved;
    }
    const client = this.client!;
    // the payload as the text the service stored, parsed here once: an adapter that writes JSON writes that text (bus/payload-text.ts)
    const { rows } = await client.query<{ seq: string; event_id: string; type: string; aggregate_id: string; payload: string; trace_parent: string | null }>(
      `select "seq", "event_id", "type", "aggregate_id", "payload"::text as "payload", "trace_parent" from "${this.opts.schema}"."outbox"
       where "published_at" is null order by "seq" limit $1`,
      [limit],
    );
    if (rows.length === 0) return 0;
    const messages: BusMessage[] = rows.map((r) => ({
      topic: this.opts.topic,
      key: r.aggregate_id,
      eventId: r.event_id,
      type: r.type,
      payload: parsePayload(r.payload),
      ...(r.trace_parent ? { headers: { traceparent: r.trace_parent } } : {}),
    }));
    // spans only for sampled traces (the header goes on either way, so the sampling decision holds downstream)
    const spans = rows.filter((r) => r.trace_parent?.endsWith('-01')).map((r) => this.publishSpan(r.type, r.event_id, r.trace_parent!, started));
    try {
      await this.opts.bus.publish(messages);
    } finally {
      for (const s of spans) s.end();
    }
    await client.query(`update "${this.opts.schema}"."outbox" set "published_at" = now() where "seq" = any($1::bigint[])`, [rows.map((r) => r.seq)]);
    this.published += rows.length;
    countIf(metrics.relayPublished, { service: this.opts.topic }, rows.length);
    return rows.length;
  }

  /**
   * The retention pass, at most every `retention.checkMs`: published outbox rows older than
   * `outboxMs` (the bus holds them), then the bus's old messages. A failure is logged and tried again
   * at the next check; publishing goes on either way.
   */
  private async pruneIfDue(): Promise<void> {
    const retention = this.opts.retention;
    if (!retention || !this.client || Date.now() - this.prunedAt < retention.checkMs) return;
    this.prunedAt = Date.now();
    try {
      const outbox = await pruneOutbox(this.client, this.opts.schema, retention.outboxMs);
      const bus = (await this.opts.bus.prune?.(retention.busMs)) ?? 0;
      if (outbox + bus > 0) this.opts.log.info({ schema: this.opts.schema, outbox, bus }, 'relay: deleted what the retention lets go');
    } catch (err) {
      this.opts.log.warn({ err: (err as Error).message, schema: this.opts.schema }, 'relay: retention pass failed; trying again at the next check');
    }
  }

  /** The outbox → bus hop of one traced event, under the span of the transaction that wrote it. */
  private publishSpan(type: string, eventId: string, traceParent: string, startTime: Date): Span {
    const span = startSpan(`publish ${type}`, traceParent, SpanKind.PRODUCER, {
      'messaging.system': this.opts.bus.kind,
      'messaging.operation.type': 'send',
      'messaging.destination.name': this.opts.topic,
      'messaging.message.id': eventId,
      'bop.service': this.opts.topic,
    }, startTime);
    return span;
  }

  private async alive(): Promise<boolean> {
    try {
      await this.client!.query('select 1');
      return true;
    } catch {
      return false;
    }
  }

  private async dropConnection(): Promise<void> {
    const c = this.client;
    this.client = null;
    this.leader = false;
    await c?.end().catch(() => undefined);
  }




  /** Wakes the loop now, or makes its next sleep return at once when it is busy. */
  wake(): void {
    this.waker.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.loop;
    await this.dropConnection();
  }
}

/**
 * Deletes a schema's outbox rows published more than `retentionMs` ago (oldest first, in statements of
 * 10,000); an unpublished row is never deleted. Answers how many.
 */
export async function pruneOutbox(client: Pick<Client, 'query'>, schema: string, retentionMs: number): Promise<number> {
  const outbox = `"${schema.replace(/"/g, '""')}"."outbox"`;
  return deleteInChunks(async (limit) => {
    const { rowCount } = await client.query(
      `delete from ${outbox} where "seq" in (
         select "seq" from ${outbox} where "published_at" < now() - make_interval(secs => $1::double precision / 1000) order by "seq" limit $2)`,
      [retentionMs, limit],
    );
    return rowCount ?? 0;
  });
}
