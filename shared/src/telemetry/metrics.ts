import { isMainThread, threadId } from 'node:worker_threads';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type MetricObjectWithValues, type MetricValue } from 'prom-client';

/**
 * The platform's Prometheus metrics (one registry per thread, labelled with the thread). Counters
 * move in-process as things happen; gauges that need a query are filled by scrape collectors, run
 * only when something scrapes, each within a short timeout. Nothing is recorded until
 * `enableMetrics()` (METRICS_ENABLED): with metrics off the counters cost one boolean check.
 */
export const metricsRegistry = new Registry();
metricsRegistry.setDefaultLabels({ thread: isMainThread ? 'main' : `worker-${threadId}` });

export type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

const registers = [metricsRegistry];
let enabled = false;

/** Turns recording on in this thread, with prom-client's process metrics (memory, CPU, event-loop lag, GC). */
export function enableMetrics(): void {
  if (enabled) return;
  enabled = true;
  collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: 20 });
}

export const metricsEnabled = (): boolean => enabled;

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const metrics = {
  httpRequests: new Counter({ name: 'bop_http_requests_total', help: 'HTTP requests answered, by service, route template, method and status class', labelNames: ['service', 'route', 'method', 'status_class'] as const, registers }),
  httpDuration: new Histogram({ name: 'bop_http_request_duration_seconds', help: 'HTTP request duration until the answer was sent', labelNames: ['service', 'route', 'method', 'status_class'] as const, buckets: SECONDS_BUCKETS, registers }),
  ingestRecords: new Counter({ name: 'bop_ingest_records_total', help: 'records received by batch ingestion, by endpoint and result', labelNames: ['endpoint', 'result'] as const, registers }),
  relayPublished: new Counter({ name: 'bop_relay_published_total', help: 'outbox events the relay published to the bus', labelNames: ['service'] as const, registers }),
  outboxBacklog: new Gauge({ name: 'bop_outbox_backlog', help: 'outbox events not yet published to the bus', labelNames: ['service'] as const, registers }),
  relayLag: new Gauge({ name: 'bop_relay_lag_seconds', help: 'age of the oldest unpublished outbox event (0 when none)', labelNames: ['service'] as const, registers }),
  busLag: new Gauge({ name: 'bop_bus_lag_messages', help: 'bus messages a consumer group has not reached yet', labelNames: ['group'] as const, registers }),
  deadLettersParked: new Counter({ name: 'bop_dead_letters_parked_total', help: 'events a consumer parked in dead_letters', labelNames: ['group'] as const, registers }),
  deadLetters: new Gauge({ name: 'bop_dead_letters', help: 'events waiting in dead_letters, by consumer group', labelNames: ['group'] as const, registers }),
  webhookDeliveries: new Counter({ name: 'bop_webhook_deliveries_total', help: 'webhook delivery attempts by outcome (succeeded, retrying, failed)', labelNames: ['outcome'] as const, registers }),
  webhookQueueDepth: new Gauge({ name: 'bop_webhook_queue_depth', help: 'webhook deliveries pending', registers }),
  webhookOldestPending: new Gauge({ name: 'bop_webhook_oldest_pending_age_seconds', help: 'age of the oldest pending webhook delivery (0 when none)', registers }),
  dbPool: new Gauge({ name: 'bop_db_pool_connections', help: 'database pool connections by state (in_use, idle, waiting: acquires queued)', labelNames: ['service', 'state'] as const, registers }),
};

/** `2xx`, `4xx` … */
export const statusClass = (status: number): string => `${Math.floor(status / 100)}xx`;

export function recordHttp(service: string, route: string, method: string, status: number, seconds: number): void {
  const labels = { service, route, method, status_class: statusClass(status) };
  metrics.httpRequests.inc(labels);
  metrics.httpDuration.observe(labels, seconds);
}

const INGEST_RESULTS = ['created', 'updated', 'unchanged', 'duplicate', 'rejected'] as const;

/** Counts a batch's records by result (after its transaction). */
export function recordIngest(endpoint: string, counts: Record<(typeof INGEST_RESULTS)[number], number>): void {
  if (!enabled) return;
  for (const result of INGEST_RESULTS) if (counts[result] > 0) metrics.ingestRecords.inc({ endpoint, result }, counts[result]);
}

/** Counts `n` with `counter` when metrics are on (the kit's call sites stay one line). */
export function countIf<L extends string>(counter: Counter<L>, labels: Partial<Record<L, string>>, n = 1): void {
  if (enabled && n > 0) counter.inc(labels, n);
}

type Collector = () => Promise<void>;
const collectors = new Set<Collector>();

/** Adds a scrape-time collector (fills gauges that need a query); answers its removal. */
export function addScrapeCollector(collect: Collector): () => void {
  collectors.add(collect);
  return () => collectors.delete(collect);
}

const SCRAPE_TIMEOUT_MS = 2000;

function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`metrics: no answer within ${ms} ms`)), ms);
      timer.unref();
    }),
  ]).finally(() => clearTimeout(timer));
}

/** This thread's metrics, its scrape collectors run first (a slow or failing one keeps its last values). */
export async function threadMetrics(timeoutMs = SCRAPE_TIMEOUT_MS): Promise<MetricsJson> {
  await Promise.allSettled([...collectors].map((c) => within(timeoutMs, c())));
  return (await metricsRegistry.getMetricsAsJSON()) as MetricsJson;
}

type Source = () => Promise<MetricsJson>;
const sources = new Set<Source>();

/** Another thread's metrics (the all-in-one runtime's worker threads), merged into this thread's scrape. */
export function addMetricsSource(source: Source): () => void {
  sources.add(source);
  return () => sources.delete(source);
}

/**
 * Merges registries' JSON into one (prom-client's AggregatorRegistry): series with the same name and
 * labels are summed, others kept side by side — every thread's series carry its `thread` label.
 */
export function aggregateMetrics(parts: MetricsJson[]): Registry {
  return AggregatorRegistry.aggregate(parts.filter((p) => p.length > 0));
}

/** The Prometheus text of this thread plus every other thread that registered a source. */
export async function collectMetricsText(timeoutMs = SCRAPE_TIMEOUT_MS): Promise<string> {
  const parts = await Promise.all([threadMetrics(timeoutMs), ...[...sources].map((s) => within(timeoutMs + 500, s()).catch((): MetricsJson => []))]);
  return aggregateMetrics(parts).metrics();
}

export const METRICS_CONTENT_TYPE = metricsRegistry.contentType;
