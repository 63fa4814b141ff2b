import type { EventEnvelope } from '@bop/contracts';
import type { Orm, EntityManager } from './db';
import type { Logger } from './logger';
import type { Bus, ConsumedMessage, Subscription } from './bus/types';
import type { ConsumerDef } from './consumers';
import { isDatabaseUnavailable } from './db-faults';
import { backoffDelay, consumerBackoff, type BackoffPolicy } from './retry';
import { countIf, metrics } from './telemetry/metrics';
import { openWork, type WorkScope } from './work';
import { processClock } from './clock';
import { ServiceClient } from './service-client';
import { inSpan, SpanKind, startSpan, type Span } from './telemetry/trace-context';

export interface ConsumerRunnerOptions {
  service: string;
  schema: string;
  orm: Orm;
  bus: Bus;
  log: Logger;
  /** attempts of one message before it is parked in dead_letters */
  maxAttempts?: number;
  /** first retry delay (ms, default consumerBackoff's); doubles per attempt, capped at 10 s (5 s while the database is unreachable) */
  backoffMs?: number;
  batchSize?: number;
  /** what each handler's unit of work is made from (default: the process's clock, no service URLs) */
  scope?: WorkScope;
}

const wanted = (def: ConsumerDef, type: string) =>
  def.types === undefined ? true : typeof def.types === 'function' ? def.types(type) : def.types.includes(type);

/** How long a Kafka consumer waits out an outage inside one batch before handing it back (below the 30 s session timeout). */
const KAFKA_OUTAGE_HOLD_MS = 15_000;

/** Per message (or batch): outage waits so far, since when, and whether the one free retry was used. */
interface OutageState {
  waits: number;
  since?: number;
  free: boolean;
}

/** Text Postgres takes: `text` refuses NUL, kept as its 6-character JSON escape. */
const textOf = (value: unknown): string => String(value ?? '').replaceAll('\u0000', '\\u0000');
const errorText = (err: unknown): string => textOf(err instanceof Error ? `${err.name}: ${err.message}` : String(err));
/**
 * An error as stored in dead_letters: a database error without the statement and parameters the
 * driver puts before it (they can repeat the whole payload); the log lines keep the full text.
 */
const storedError = (err: unknown): string => {
  const text = errorText(err);
  const sqlState = (err as { code?: unknown } | null)?.code;
  const cut = text.lastIndexOf(' - ');
  return err instanceof Error && typeof sqlState === 'string' && cut > 0 ? `${err.name}: ${text.slice(cut + 3)}` : text;
};
/**
 * A payload as the text parked in dead_letters: its JSON form, where a NUL or a lone surrogate is an
 * escape (valid in `text`) and `JSON.parse` gives the payload back (`ops dead-letters retry`).
 */
export function payloadText(payload: unknown): string {
  try {
    const json = JSON.stringify(payload);
    if (typeof json === 'string') return json;
  } catch {
    // not serialisable: its string form below
  }
  return JSON.stringify(String(payload));
}

/** Thrown out of a handler call when the runner stops during a wait: the bus keeps the message for next time. */
class RunnerStopping extends Error {
  constructor() {
    super('consumer runner stopping');
  }
}

/**
 * Runs a service's consumers: at least once from the bus, never applied twice (the event id goes into
 * `processed_events` in the handler's transaction), in bus order (so per key). A batch runs in one
 * transaction; when it fails, its messages run one by one with backoff, and one that still fails after
 * `maxAttempts` is parked in `dead_letters` with its error so the topic moves on
 * (`ops dead-letters list|retry`).
 *
 * Never stalls, never loses (issue 13):
 * - A database outage is not a bad record: a failure `isDatabaseUnavailable` recognises, while a
 *   probe (`select 1`) cannot reach the database either, counts no attempt and parks nothing; the
 *   runner waits with backoff (at most 5 s between tries; on Kafka, after 15 s in one batch, the batch
 *   goes back to the bus so the group member is not timed out) and runs the same message again once
 *   the database answers. (An error that only looks like an outage — its text can carry a record's
 *   values — while the database answers gets one free retry, then counts: a record cannot stall its
 *   topic by mimicking one.)
 * - A message the bus could not decode (`undecodable`) reaches no handler: it is parked as it is.
 * - A dead letter keeps the payload as JSON text (every column is text, NULs escaped), so whatever a
 *   consumer got can be parked.
 * - If parking still fails (not for an outage: then it waits), a minimal row is written instead
 *   (names and error, no payload) and the whole payload, topic and position are logged at error
 *   level; if even that fails, the event is skipped with that log line as its only record (the bus
 *   also still holds it at its position). The topic moves on in every case: an event is never
 *   dropped without a dead letter or an error line carrying it.
 */
export class ConsumerRunner {
  private readonly subscriptions: Subscription[] = [];
  private stopping = false;
  private readonly sleepers = new Set<() => void>();
  private readonly backoff: BackoffPolicy;
  private readonly scope: WorkScope;

  constructor(
    private readonly defs: ConsumerDef[],
    private readonly opts: ConsumerRunnerOptions,
  ) {
    this.backoff = { ...consumerBackoff, baseMs: opts.backoffMs ?? consumerBackoff.baseMs };
    this.scope = opts.scope ?? { schema: opts.schema, clock: processClock, log: opts.log, services: new ServiceClient({}, null) };
  }

  group(def: ConsumerDef): string {
    return `${this.opts.service}.${def.name}`;
  }

  /** The consumer groups this runner runs (`<service>.<consumer>`). */
  groups(): string[] {
    return this.defs.map((d) => this.group(d));
  }

  async start(): Promise<void> {
    this.stopping = false;
    for (const def of this.defs) {
      const sub = await this.opts.bus.subscribe({
        group: this.group(def),
        topics: def.topics,
        batchSize: this.opts.batchSize ?? 200,
        // a list of types lets the bus leave the others out (a function is applied here only)
        types: Array.isArray(def.types) ? def.types : undefined,
        typesNow: def.typesNow ? () => def.typesNow!(this.opts.orm.em.fork()) : undefined,
        settleMs: def.settleMs,
        handler: (batch) => this.handleBatch(def, batch),
        onError: (err) => {
          if (err instanceof RunnerStopping) return;
          // the bus's own reads fail during an outage too: expected, retried by the bus
          if (isDatabaseUnavailable(err)) this.opts.log.warn({ err: errorText(err), consumer: def.name }, 'consumer: bus unreachable; retrying');
          else this.opts.log.error({ err, consumer: def.name }, 'consumer: batch failed; retrying');
        },
      });
      this.subscriptions.push(sub);
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const wake of [...this.sleepers]) wake();
    await Promise.all(this.subscriptions.splice(0).map((s) => s.stop()));
  }

  /** Waits `ms` (cut short by stop, which then throws so the bus keeps the message). */
  private async sleep(ms: number): Promise<void> {
    if (this.stopping) throw new RunnerStopping();
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
    if (this.stopping) throw new RunnerStopping();
  }

  /** Whether the database answers now (an outage-like error with a reachable database is the record's). */
  private async databaseAnswers(): Promise<boolean> {
    try {
      await this.opts.orm.em.getConnection().execute('select 1');
      return true;
    } catch {
      return false;
    }
  }

  /**
   * After a failure: true when it was an outage to wait out (waited; run the same thing again, no
   * attempt counted). `free` carries, per message, whether the one free retry of an outage-looking
   * failure with a reachable database was used.
   */
  private async outage(def: ConsumerDef, err: unknown, state: OutageState): Promise<boolean> {
    if (!isDatabaseUnavailable(err)) return false;
    if (await this.databaseAnswers()) {
      if (state.free) return false;
      state.free = true;
      return true;
    }
    if (state.waits === 0) {
      state.since = Date.now();
      this.opts.log.warn({ err: errorText(err), consumer: def.name }, 'consumer: database unreachable; waiting for it (no attempt counted, nothing parked)');
    }
    // Kafka ends a group member that stays inside one batch past its session timeout: after a while
    // the batch goes back to the bus (redelivered after its backoff, attempts starting afresh)
    if (this.opts.bus.kind === 'kafka' && Date.now() - (state.since ?? Date.now()) > KAFKA_OUTAGE_HOLD_MS) throw err;
    await this.sleep(backoffDelay(state.waits + 1, this.backoff, true));
    state.waits += 1;
    return true;
  }

  private async handleBatch(def: ConsumerDef, batch: ConsumedMessage[]): Promise<void> {
    const relevant: ConsumedMessage[] = [];
    for (const m of batch) {
      if (m.undecodable === undefined) {
        if (wanted(def, m.type)) relevant.push(m);
      } else if (m.type === '' || wanted(def, m.type)) {
        // bytes the bus could not decode reach no handler: parked as they are (also when no header names the type)
        await this.park(def, m, new Error(`undecodable event: ${m.undecodable}`), 0);
      }
    }
    if (relevant.length === 0) return;
    const state: OutageState = { waits: 0, free: false };
    for (;;) {
      try {
        await this.opts.orm.em.fork().transactional((em) => this.apply(def, em, relevant));
        if (state.waits > 0) this.opts.log.info({ consumer: def.name }, 'consumer: database back; resumed');
        return;
      } catch (err) {
        if (await this.outage(def, err, state)) continue;
        this.opts.log.warn({ err: errorText(err), consumer: def.name, size: relevant.length }, 'consumer: batch failed, isolating the failing message');
        break;
      }
    }
    for (const message of relevant) await this.handleOne(def, message);
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
    const unit = openWork(this.scope, em, true);
    const work = { ...unit.work, em };
    if (def.handleBatch && todo.length > 1) {
      // one span per traced event, each under its writer's span, around the batch that handles them together
      const spans = todo.flatMap((m) => (m.headers?.traceparent ? [this.consumeSpan(def, m)] : []));
      try {
        await def.handleBatch({ ...work, events: todo.map((message) => ({ event: message.payload as unknown as EventEnvelope, message })) });
      } finally {
        for (const s of spans) s.end();
      }
      await unit.flush();
      return;
    }
    for (const message of todo) {
      const handle = () => def.handle({ ...work, event: message.payload as unknown as EventEnvelope, message });
      // a traced event is handled in a span under its writer's, so what the handler writes carries the trace on
      if (message.headers?.traceparent) await inSpan(this.spanName(message), { parent: message.headers.traceparent, kind: SpanKind.CONSUMER, attributes: this.spanAttributes(def, message) }, handle);
      else await handle();
    }
    await unit.flush();
  }

  private spanName(message: ConsumedMessage): string {
    return `process ${message.type}`;
  }

  private spanAttributes(def: ConsumerDef, message: ConsumedMessage): Record<string, string> {
    return {
      'messaging.system': this.opts.bus.kind,
      'messaging.operation.type': 'process',
      'messaging.destination.name': message.topic,
      'messaging.consumer.group.name': this.group(def),
      'messaging.message.id': message.eventId,
      'bop.service': this.opts.service,
    };
  }

  private consumeSpan(def: ConsumerDef, message: ConsumedMessage): Span {
    return startSpan(this.spanName(message), message.headers?.traceparent, SpanKind.CONSUMER, this.spanAttributes(def, message));
  }

  private async handleOne(def: ConsumerDef, message: ConsumedMessage): Promise<void> {
    const max = this.opts.maxAttempts ?? 5;
    const state: OutageState = { waits: 0, free: false };
    let attempts = 0;
    let lastError: unknown;
    for (;;) {
      try {
        await this.opts.orm.em.fork().transactional((em) => this.apply(def, em, [message]));
        return;
      } catch (err) {
        if (await this.outage(def, err, state)) continue;
        state.waits = 0;
        attempts += 1;
        lastError = err;
        if (attempts >= max) break;
        await this.sleep(backoffDelay(attempts, this.backoff));
      }
    }
    await this.park(def, message, lastError, attempts);
  }

  /**
   * Parks a message the handler could not take. Waits out an outage; otherwise never throws: a row
   * that cannot be written whole is written minimal, and one that cannot be written at all is logged
   * with its payload (see the class comment).
   */
  private async park(def: ConsumerDef, message: ConsumedMessage, error: unknown, attempts: number): Promise<void> {
    const cause = storedError(error);
    const payload = payloadText(message.payload);
    const where = { consumer: def.name, eventId: textOf(message.eventId), type: textOf(message.type), topic: textOf(message.topic), position: textOf(message.position) };
    const insert = `insert into "${this.opts.schema}"."dead_letters" ("consumer", "event_id", "topic", "key", "type", "position", "payload", "error", "attempts")
       values (?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict ("consumer", "event_id") do update set "payload" = excluded."payload", "error" = excluded."error", "attempts" = "dead_letters"."attempts" + excluded."attempts"`;
    // a minimal row never blanks the payload an earlier parking of the same event kept
    const insertMinimal = insert.replace(`"payload" = excluded."payload", `, '');
    const state: OutageState = { waits: 0, free: true };
    for (;;) {
      try {
        await this.opts.orm.em.getConnection().execute(insert, [this.group(def), textOf(message.eventId), textOf(message.topic), textOf(message.key), textOf(message.type), textOf(message.position), payload, cause, attempts]);
        this.opts.log.error({ ...where, err: errorText(error), attempts }, 'consumer: parked in dead_letters');
        countIf(metrics.deadLettersParked, { group: this.group(def) });
        return;
      } catch (err) {
        if (await this.outage(def, err, state)) continue;
        const parkError = storedError(err);
        this.opts.log.error({ ...where, key: textOf(message.key), err: errorText(error), parkError: errorText(err), payload }, 'consumer: could not park the event whole; keeping a minimal dead letter (its payload is in this line)');
        const short = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);
        try {
          await this.opts.orm.em.getConnection().execute(insertMinimal, [
            this.group(def),
            short(textOf(message.eventId), 200),
            short(textOf(message.topic), 200),
            short(textOf(message.key), 200),
            short(textOf(message.type), 200),
            short(textOf(message.position), 200),
            '',
            short(`not parked whole (${parkError}); the payload is in the log; replay from topic ${where.topic} position ${where.position}. ${cause}`, 4000),
            attempts,
          ]);
          return;
        } catch (minimalErr) {
          if (await this.outage(def, minimalErr, state)) continue;
          this.opts.log.error(
            { ...where, key: textOf(message.key), err: errorText(error), parkError: errorText(minimalErr), payload },
            'consumer: event SKIPPED without a dead letter (no row could be written); this line is its record: replay it from its topic and position',
          );
          return;
        }
      }
    }
  }

  /**
   * Re-runs parked messages (all, or one by id); those that now succeed leave dead_letters. The
   * payload is parsed back from its JSON text; an outage fails the command (nothing is counted).
   */
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
      try {
        const message: ConsumedMessage = { position: row.position, topic: row.topic, key: row.key, eventId: row.event_id, type: row.type, payload: parsedPayload(row) };
        await this.opts.orm.em.fork().transactional(async (em) => {
          await this.apply(def, em, [message]);
          await em.execute(`delete from "${this.opts.schema}"."dead_letters" where "id" = ?`, [row.id]);
        });
        retried += 1;
      } catch (err) {
        if (isDatabaseUnavailable(err) && !(await this.databaseAnswers())) throw err;
        stillFailing += 1;
        await conn.execute(`update "${this.opts.schema}"."dead_letters" set "error" = ?, "attempts" = "attempts" + 1 where "id" = ?`, [storedError(err), row.id]);
      }
    }
    return { retried, stillFailing };
  }
}

/** A dead letter's payload as the handler takes it (text since issue 13; an object from a jsonb column before). */
function parsedPayload(row: { payload: unknown; topic: string; position: string }): Record<string, unknown> {
  if (row.payload === '') throw new Error(`the payload was not kept (see the error logged when it was parked): replay it from topic ${row.topic} position ${row.position}`);
  const value = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('the parked payload is not a JSON object');
  return value as Record<string, unknown>;
}

/** Dead letters of a schema, for the ops CLI (`payload`: the event's JSON text as parked, '' when it could not be kept). */
export async function listDeadLetters(
  orm: Orm,
  schema: string,
): Promise<Array<{ id: string; consumer: string; eventId: string; type: string; topic: string; position: string; payload: string; error: string; attempts: number; createdAt: string }>> {
  const rows = await orm.em.getConnection().execute<any[]>(`select * from "${schema}"."dead_letters" order by "id"`);
  return rows.map((r) => ({
    id: String(r.id),
    consumer: r.consumer,
    eventId: r.event_id,
    type: r.type,
    topic: r.topic,
    position: String(r.position),
    payload: typeof r.payload === 'string' ? r.payload : JSON.stringify(r.payload),
    error: r.error,
    attempts: r.attempts,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}
