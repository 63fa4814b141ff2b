/**
 * The event bus behind one interface (architecture: Events). Adapters: `postgres` (embedded default,
 * a `bus` schema in the same database) and `kafka` (distributed). Selected by `BUS`.
 *
 * Guarantees every adapter gives (the contract suite in shared/test/bus-contract.ts checks them):
 * - publish() resolves only when the messages are durably stored, in the order given;
 * - a consumer group sees every message of its topics at least once, in publish order per key;
 * - a group's position advances only when its handler says so (after the handler's transaction).
 */
export interface BusMessage {
  /** the area, e.g. `organization` (topic per area) */
  topic: string;
  /** the record's id: messages with one key stay in order */
  key: string;
  /** `evt_…`, also sent as a header */
  eventId: string;
  type: string;
  /** the event envelope exactly as the spec's Events section shows it */
  payload: Record<string, unknown>;
  headers?: Record<string, string>;
}

export interface ConsumedMessage extends BusMessage {
  /** position in its topic (Postgres: a bigint sequence; Kafka: `<partition>:<offset>`) */
  position: string;
  /**
   * Set when the adapter could not decode the stored value (why): `payload` is then `{ value }`, the
   * bytes as text. The consumer runner parks such a message without running a handler.
   */
  undecodable?: string;
}

export interface SubscribeOptions {
  /** consumer group: each group gets every message once (at least once) */
  group: string;
  topics: string[];
  /** largest batch handed to the handler */
  batchSize?: number;
  /**
   * Only these event types are wanted: an adapter may leave the others out (the Postgres adapter
   * filters in SQL and still moves the group past them). Handlers must still ignore other types.
   */
  types?: string[];
  /**
   * The types wanted at this moment, asked on each read after the log's end was read (so a type
   * wanted from some moment on only concerns messages appended after it): the Postgres adapter reads
   * only these (none: it moves the group to the end without reading) and, with `types`, their
   * intersection. Adapters that cannot filter ignore it; handlers must still ignore other types.
   */
  typesNow?: () => Promise<string[]>;
  /**
   * Handles a batch in order. Resolving commits the group's position past the batch; throwing
   * redelivers the batch from its first message (the caller retries with backoff).
   */
  handler: (batch: ConsumedMessage[]) => Promise<void>;
  onError?: (err: unknown) => void;
  /**
   * After a batch that was not full, wait this long before reading again, whatever arrives
   * meanwhile: a consumer whose work is cheaper in bulk (one posting for many events) trades this
   * much latency for bigger batches under load. The Postgres adapter honours it; Kafka batches by
   * its own fetch wait.
   */
  settleMs?: number;
  /**
   * Where a group seen for the first time starts: `earliest` (default: everything kept) or `latest`
   * (only what is published from now on — for per-instance listeners such as a gateway's cache).
   * A `latest` group is the instance's own: it is forgotten when the subscription stops.
   */
  startAt?: 'earliest' | 'latest';
}

/** What one `appendFromOutbox` moved: how many rows, and those whose trace context is sampled (for the relay's publish spans). */
export interface OutboxMove {
  moved: number;
  traced: Array<{ eventId: string; type: string; traceParent: string }>;
}

export interface Subscription {
  stop(): Promise<void>;
}

export interface Bus {
  readonly kind: 'postgres' | 'kafka';
  publish(messages: BusMessage[]): Promise<void>;
  subscribe(opts: SubscribeOptions): Promise<Subscription>;
  close(): Promise<void>;
  /**
   * Optional fast path for a relay whose outbox lives in the bus's own database: moves up to `limit`
   * unpublished outbox rows into the bus and marks them published in one transaction, inside the
   * database (the payloads never travel through the relay). Answers how many, or null when the
   * outbox is elsewhere (the relay then publishes as usual). The outbox row's `trace_parent` becomes
   * the message's `traceparent` header.
   */
  appendFromOutbox?(source: { connectionString: string; schema: string; topic: string; limit: number }): Promise<OutboxMove | null>;
  /** How many messages each of these consumer groups has not reached yet (metrics; read at scrape time). */
  groupLag?(groups: string[]): Promise<Array<{ group: string; lag: number }>>;
  /**
   * Deletes the messages appended more than `retentionMs` ago that every active consumer group (one
   * whose position moved within that time) has read; answers how many. One caller at a time does
   * the work (others answer 0). Kafka keeps its own retention and has none.
   */
  prune?(retentionMs: number): Promise<number>;
  /**
   * Forgets a consumer group: its position is deleted, so it holds nothing back and lags behind
   * nothing, and a later subscription of that name starts afresh (`startAt`). For one-off readers
   * such as a rebuild's replay; the group must have no running subscription.
   */
  forget?(group: string): Promise<void>;
  /**
   * Where each partition of these topics begins (`low`) and ends (`high`: the next message's offset)
   * now — Kafka, whose partitions have no order between them, so a replay reads each up to the end it
   * had when the replay began (a rebuild's). A topic not created yet has none.
   */
  partitionEnds?(topics: string[]): Promise<PartitionEnd[]>;
}

/** One partition's bounds (`partitionEnds`): offsets as decimal strings, as positions carry them. */
export interface PartitionEnd {
  /** the area topic, as messages name it */
  topic: string;
  partition: number;
  low: string;
  high: string;
}
