import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventEnvelope } from '@bop/contracts';
import type { Work } from './work';
import type { ConsumedMessage } from './bus/types';

/**
 * A handler for other areas' (or its own) events, declared in a service's `consumers/`.
 * The kit runs it at least once per event and never twice: the event id goes into the service's
 * `processed_events` table in the same transaction as the handler's writes. A message that keeps
 * failing is retried with backoff, then parked in `dead_letters` (payload as JSON text) so its topic
 * moves on; a database outage is waited out, never counted (consumer-runner.ts). A handler throws
 * for an event it cannot apply (a producer's bug) rather than guess: the event is parked, visible
 * to ops, and retried once fixed.
 */
export interface ConsumerDef {
  /** unique within the service; the consumer group is `<service>.<name>` */
  name: string;
  /** topics (areas) to read; `['*']` for every area */
  topics: string[];
  /** the event types it wants (others are skipped and not recorded); all when omitted */
  types?: string[] | ((type: string) => boolean);
  /**
   * The types it wants at this moment, read on every fetch from the bus (e.g. those some webhook
   * endpoint subscribes to): the Postgres bus then reads no other type, so events nobody wants cost
   * nothing. Asked after the bus's end was read, so a type wanted from some moment on only concerns
   * events appended after that moment. Must be cheap (one small query).
   */
  typesNow?(em: EntityManager): Promise<string[]>;
  /** runs inside the transaction that also records the event as processed */
  handle(ctx: ConsumerContext): Promise<void>;
  /**
   * Instead of `handle` per event: all new events of a bus batch at once (in bus order, each once),
   * in the one transaction that records them — for consumers whose work is cheaper set-based
   * (e.g. one stock posting for a batch of sales). `handle` still runs a message alone when a batch
   * fails and its messages are isolated.
   */
  handleBatch?(ctx: ConsumerBatchContext): Promise<void>;
  /**
   * With `handleBatch`: after a batch, wait this long before reading the next, so a burst arrives as
   * one bigger batch (latency traded for cost under load; see `SubscribeOptions.settleMs`).
   */
  settleMs?: number;
}

/** The batch's unit of work (its transaction also records the events as processed) and the events. */
export interface ConsumerBatchContext extends Work {
  events: Array<{ event: EventEnvelope; message: ConsumedMessage }>;
}

/** The event's unit of work (its transaction also records the event as processed; actor `system`) and the event. */
export interface ConsumerContext extends Work {
  event: EventEnvelope;
  message: ConsumedMessage;
}

export function defineConsumer(def: ConsumerDef): ConsumerDef {
  return def;
}

/** A background loop owned by a service (delivery worker, overdue checks): started after listen, stopped first on close. */
export interface WorkerDef {
  name: string;
  start(): Promise<void> | void;
  stop(): Promise<void> | void;
}


/**
 * A value from an event made storable in Postgres: every U+0000 in its strings (keys too) becomes
 * U+FFFD, which `text` and `jsonb` take (both refuse NUL). For consumers that keep what a producer
 * sent (e.g. a batch's `source`) rather than park the event for one character; the edge refuses NUL,
 * so only events from before that rule, or from another producer, carry one.
 */
export function withoutNul<T>(value: T): T {
  if (typeof value === 'string') return (value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFD') : value) as T;
  if (Array.isArray(value)) return value.map((v) => withoutNul(v)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [withoutNul(k), withoutNul(v)])) as T;
  }
  return value;
}
