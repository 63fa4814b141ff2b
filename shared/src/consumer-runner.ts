import type { EventEnvelope } from '@bop/contracts';
import type { Orm, EntityManager } from './db';
import type { Logger } from './logger';
import type { Bus, ConsumedMessage, Subscription } from './bus/types';
import type { ConsumerDef } from './consumers';

export interface ConsumerRunnerOptions {
  service: string;
  schema: string;
  orm: Orm;
  bus: Bus;
  log: Logger;
  /** attempts of one message before it is parked in dead_letters */
  maxAttempts?: number;
  /** first retry delay (ms); doubles per attempt, capped at 10 s */
  backoffMs?: number;
  batchSize?: number;
}

const wanted = (def: ConsumerDef, type: string) =>
  def.types === undefined ? true : typeof def.types === 'function' ? def.types(type) : def.types.includes(type);

/**
 * Runs a service's consumers: at least once from the bus, never applied twice (the event id goes into
 * `processed_events` in the handler's transaction), in bus order (so per key). A batch runs in one
 * transaction; when it fails, its messages run one by one with backoff, and one that still fails after
 * `maxAttempts` is parked in `dead_letters` with its error so the topic moves on
 * (`ops dead-letters list|retry`).
 */
export class ConsumerRunner {
  private readonly subscriptions: Subscription[] = [];

  constructor(
    private readonly defs: ConsumerDef[],
    private readonly opts: ConsumerRunnerOptions,
  ) {}

  group(def: ConsumerDef): string {
    return `${this.opts.service}.${def.name}`;
  }

  async start(): Promise<void> {
    for (const def of this.defs) {
      const sub = await this.opts.bus.subscribe({
        group: this.group(def),
        topics: def.topics,
        batchSize: this.opts.batchSize ?? 200,
        // a list of types lets the bus leave the others out (a function is applied here only)
        types: Array.isArray(def.types) ? def.types : undefined,
        settleMs: def.settleMs,
        handler: (batch) => this.handleBatch(def, batch),
        onError: (err) => this.opts.log.error({ err, consumer: def.name }, 'consumer: batch failed; retrying'),
      });
      this.subscriptions.push(sub);
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.subscriptions.splice(0).map((s) => s.stop()));
  }

  private async handleBatch(def: ConsumerDef, batch: ConsumedMessage[]): Promise<void> {
    const relevant = batch.filter((m) => wanted(def, m.type));
    if (relevant.length === 0) return;
    try {
      await this.opts.orm.em.fork().transactional((em) => this.apply(def, em, relevant));
    } catch (err) {
      this.opts.log.warn({ err: (err as Error).message, consumer: def.name, size: relevant.length }, 'consumer: batch failed, isolating the failing message');
      for (const message of relevant) await this.handleOne(def, message);
    }
  }

  /** Records the new event ids and runs the handler for each, in order, in one transaction. */
  private async apply(def: ConsumerDef, em: EntityManager, messages: ConsumedMessage[]): Promise<void> {
    const consumer = this.group(def);
    const rows: Array<{ event_id: string }> = await em.execute(
      `insert into "${this.opts.schema}"."processed_events" ("consumer", "event_id")
       select ?, jsonb_array_elements_text(?::jsonb) on conflict do nothing returning "event_id"`,
      [consumer, JSON.stringify(messages.map((m) => m.eventId))],
    );
    const fresh = new Set(rows.map((r) => r.event_id));
    const todo: ConsumedMessage[] = [];
    for (const message of messages) {
      if (!fresh.has(message.eventId)) continue;
      fresh.delete(message.eventId); // the same event twice in one batch runs once
      todo.push(message);
    }
    if (def.handleBatch && todo.length > 1) {
      await def.handleBatch({ em, events: todo.map((message) => ({ event: message.payload as unknown as EventEnvelope, message })), log: this.opts.log });
      return;
    }
    for (const message of todo) await def.handle({ em, event: message.payload as unknown as EventEnvelope, message, log: this.opts.log });
  }

  private async handleOne(def: ConsumerDef, message: ConsumedMessage): Promise<void> {
    const max = this.opts.maxAttempts ?? 5;
    let lastError: unknown;
    for (let attempt = 1; attempt <= max; attempt++) {
      try {
        await this.opts.orm.em.fork().transactional((em) => this.apply(def, em, [message]));
        return;
      } catch (err) {
        lastError = err;
        if (attempt < max) await new Promise((r) => setTimeout(r, Math.min(10_000, (this.opts.backoffMs ?? 200) * 2 ** (attempt - 1))));
      }
    }
    await this.park(def, message, lastError, max);
  }

  private async park(def: ConsumerDef, message: ConsumedMessage, error: unknown, attempts: number): Promise<void> {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    this.opts.log.error({ consumer: def.name, eventId: message.eventId, type: message.type, err: text }, 'consumer: parked in dead_letters');
    await this.opts.orm.em.getConnection().execute(
      `insert into "${this.opts.schema}"."dead_letters" ("consumer", "event_id", "topic", "key", "type", "position", "payload", "error", "attempts")
       values (?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict ("consumer", "event_id") do update set "error" = excluded."error", "attempts" = "dead_letters"."attempts" + excluded."attempts"`,
      [this.group(def), message.eventId, message.topic, message.key, message.type, message.position, JSON.stringify(message.payload), text, attempts],
    );
  }

  /** Re-runs parked messages (all, or one by id); those that now succeed leave dead_letters. */
  async retryDeadLetters(id?: string): Promise<{ retried: number; stillFailing: number }> {
    const conn = this.opts.orm.em.getConnection();
    const rows = await conn.execute<any[]>(
      `select * from "${this.opts.schema}"."dead_letters" ${id ? 'where "id" = ?' : ''} order by "id"`,
      id ? [id] : [],
    );
    let retried = 0;
    let stillFailing = 0;
    for (const row of rows) {
      const def = this.defs.find((d) => this.group(d) === row.consumer);
      if (!def) continue;
      const message: ConsumedMessage = { position: row.position, topic: row.topic, key: row.key, eventId: row.event_id, type: row.type, payload: row.payload };
      try {
        await this.opts.orm.em.fork().transactional(async (em) => {
          await this.apply(def, em, [message]);
          await em.execute(`delete from "${this.opts.schema}"."dead_letters" where "id" = ?`, [row.id]);
        });
        retried += 1;
      } catch (err) {
        stillFailing += 1;
        await conn.execute(`update "${this.opts.schema}"."dead_letters" set "error" = ?, "attempts" = "attempts" + 1 where "id" = ?`, [String((err as Error).message ?? err), row.id]);
      }
    }
    return { retried, stillFailing };
  }
}

/** Dead letters of a schema, for the ops CLI. */
export async function listDeadLetters(orm: Orm, schema: string): Promise<Array<{ id: string; consumer: string; eventId: string; type: string; error: string; attempts: number; createdAt: string }>> {
  const rows = await orm.em.getConnection().execute<any[]>(`select * from "${schema}"."dead_letters" order by "id"`);
  return rows.map((r) => ({ id: String(r.id), consumer: r.consumer, eventId: r.event_id, type: r.type, error: r.error, attempts: r.attempts, createdAt: new Date(r.created_at).toISOString() }));
}
