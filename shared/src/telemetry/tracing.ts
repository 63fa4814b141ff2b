/**
 * OpenTelemetry tracing for one process (or worker thread): the gateway, a service run alone, or the
 * all-in-one runtime. Import this file and call `startTracing` FIRST in an entry point, before
 * anything loads `http`, `express`, `pg` or `undici`: the instrumentations patch those modules as
 * they are required.
 *
 * On only when an OTLP endpoint is set (`OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) and `OTEL_SDK_DISABLED` is not `true`; otherwise nothing is
 * loaded and tracing costs nothing. The SDK's own settings apply as documented by OpenTelemetry:
 * `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_TRACES_SAMPLER` (default
 * `parentbased_always_on`; `parentbased_traceidratio` with `OTEL_TRACES_SAMPLER_ARG=0.1` keeps one
 * trace in ten: its ratio is applied per request at the edge, see EdgeSampling, and a traced parent is
 * always followed), `OTEL_BSP_*` for the batch span processor. Spans go out as OTLP/HTTP JSON, sent
 * from an export thread (span-export-thread.ts).
 *
 * What is traced: incoming requests (serveTraced) and the platform's own HTTP calls (gateway →
 * service, service → service commands: startClientSpan), other outgoing HTTP made with `node:http`
 * (object storage), express, a service's Postgres queries under a traced request or consumer (the
 * gateway's thread carries no context across awaits: threadContextManager), and the kit's
 * own spans for the hops between them (outbox relay, bus consumers, delivery attempts: trace-context.ts).
 * Health, readiness and metrics requests, and outgoing calls or queries with no traced parent (the
 * background loops' polling), make no spans.
 */
import { EdgeSampling, onAsyncTraceContext, samplingRatio, useEdgeSampling, type AsyncTraceContext } from './trace-context';

export { EdgeSampling, samplingRatio };

export interface TracingHandle {
  /** flushes pending spans and stops the SDK */
  shutdown(): Promise<void>;
}

let running: TracingHandle | null = null;

/** Sends the spans still buffered and stops tracing in this thread (a no-op when it is off). */
export async function stopTracing(): Promise<void> {
  await running?.shutdown().catch(() => undefined);
}

/** Whether this environment asks for tracing (an OTLP endpoint is set, the SDK not disabled). */
export function tracingRequested(env: Record<string, string | undefined> = process.env): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').toLowerCase() === 'true') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * The batch span processor's size and delay: OpenTelemetry's `OTEL_BSP_MAX_EXPORT_BATCH_SIZE` and
 * `OTEL_BSP_SCHEDULE_DELAY` when set, else 100 spans and 1 s rather than the SDK's 512 and 5 s. An
 * export of 512 spans is a JSON body of about 450 KB built in one piece (above V8's 128 KB
 * large-object size) from spans held for seconds: in an A/B of two runtimes side by side (GET
 * /locations through the gateway, 10 % sampling, 2026-11-27) the V8 helper threads burned about 40 µs
 * more per request than with telemetry off and throughput was 82-85 % of off; with batches of 100
 * (about 90 KB) every second, or 64 every 200 ms, the helper threads' CPU was back to off's and
 * throughput 92-93 %. `npm run bench` moved less: the untraced service hop 90.8 → 95.6 % of off, the
 * gateway path 84.6 → 85.9 %.
 */
export function batchSettings(env: Record<string, string | undefined> = process.env): { maxExportBatchSize: number; scheduledDelayMillis: number } {
  const positive = (v: string | undefined, fallback: number) => {
    const n = Number(v);
    return v !== undefined && v.trim() !== '' && Number.isFinite(n) && n > 0 ? n : fallback;
  };
  return {
    maxExportBatchSize: positive(env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE, 100),
    scheduledDelayMillis: positive(env.OTEL_BSP_SCHEDULE_DELAY, 1000),
  };
}

/**
 * This thread's context manager. It starts synchronous: `context.with(ctx, fn)` makes `ctx` active
 * while `fn` runs, and nothing follows an await — what the gateway's thread needs, its calls taking
 * each request's context explicitly (requestTraceContext). When a service starts in the thread
 * (useAsyncTraceContext, before it serves), its work must find its context across awaits, and the
 * context rides in MikroORM's transaction AsyncLocalStorage (transactionSlotManager) rather than in
 * a storage of its own.
 *
 * Why not OpenTelemetry's AsyncLocalStorage manager: every AsyncLocalStorage in use runs its own
 * step of a hook for every promise and async resource the thread makes, traced or not (50 awaits:
 * 3.8 µs with none, 9.7 µs with one, 15.4 µs with two), and a service's thread already has two in
 * use for good, MikroORM's transaction context and its flush guard (a census of the storages run in
 * each thread under `npm run bench:tracing`, 2026-11-27). OpenTelemetry's made a third; switched on
 * only while traced work was in flight it was still on nearly all the time under load at 10 %
 * sampling (one traced request in flight is enough).
 */
function threadContextManager(): { manager: import('@opentelemetry/api').ContextManager; hold: AsyncTraceContext } {
  const { ROOT_CONTEXT } = require('@opentelemetry/api') as typeof import('@opentelemetry/api');
  type Context = import('@opentelemetry/api').Context;
  type ContextManager = import('@opentelemetry/api').ContextManager;
  let current: Context = ROOT_CONTEXT;
  /** the carrying manager once a service started here */
  let async: ContextManager | null = null;
  const manager: ContextManager = {
    active: () => (async !== null ? async.active() : current),
    with(ctx, fn, thisArg, ...args) {
      if (async !== null) return async.with(ctx, fn, thisArg, ...args);
      const previous = current;
      current = ctx;
      try {
        return fn.call(thisArg, ...args);
      } finally {
        current = previous;
      }
    },
    bind(ctx, target) {
      if (async !== null) return async.bind(ctx, target);
      if (typeof target !== 'function') return target;
      const fn = target as unknown as (...a: unknown[]) => unknown;
      return function (this: unknown, ...a: unknown[]) {
        return manager.with(ctx, () => fn.apply(this, a));
      } as typeof target;
    },
    enable: () => manager,
    disable: () => {
      current = ROOT_CONTEXT;
      return manager;
    },
  };
  const hold: AsyncTraceContext = {
    use: () => {
      async ??= transactionSlotManager();
    },
  };
  return { manager, hold };
}

/**
 * A context manager that keeps the active OpenTelemetry context in a slot of MikroORM's transaction
 * context, carried across awaits by MikroORM's own AsyncLocalStorage (`TransactionContext.storage`),
 * which a service's thread keeps in use anyway (threadContextManager says why).
 *
 * `with(ctx, fn)` runs `fn` in a new transaction context holding `ctx` and the entity manager of the
 * transaction in progress, if any: MikroORM sees the same transaction (or, outside one, an entity
 * manager whose name is no real one's, so none). A transaction MikroORM starts takes the slot of the
 * context it starts in: its `TransactionContext.create` is wrapped to copy it, so a transaction's
 * queries sit under the span that started the transaction. Every transaction context has the slot
 * (ROOT_CONTEXT when nothing is traced): one object shape for MikroORM's code.
 */
function transactionSlotManager(): import('@opentelemetry/api').ContextManager {
  const { ROOT_CONTEXT } = require('@opentelemetry/api') as typeof import('@opentelemetry/api');
  const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks') as typeof import('@opentelemetry/context-async-hooks');
  const { TransactionContext } = require('@mikro-orm/core') as typeof import('@mikro-orm/core');
  type Context = import('@opentelemetry/api').Context;
  type Slotted = InstanceType<typeof TransactionContext> & { [TRACE_SLOT]?: Context };
  // private in MikroORM's typings, a public static field at run time
  const storage = (TransactionContext as unknown as { storage: import('node:async_hooks').AsyncLocalStorage<Slotted> }).storage;
  const NO_ENTITY_MANAGER = { name: '\u0000no transaction', _id: undefined } as unknown as ConstructorParameters<typeof TransactionContext>[0];
  const slotted = (em: ConstructorParameters<typeof TransactionContext>[0], ctx: Context): Slotted => {
    const tc = new TransactionContext(em) as Slotted;
    tc[TRACE_SLOT] = ctx;
    return tc;
  };
  if (!(TRACE_SLOT in TransactionContext)) {
    // MikroORM's own transactions (em.transactional, flush) inherit the slot of the context they start in
    Object.defineProperty(TransactionContext, TRACE_SLOT, { value: true });
    TransactionContext.create = function create<T>(em: ConstructorParameters<typeof TransactionContext>[0], next: (...args: unknown[]) => T): T {
      return storage.run(slotted(em, storage.getStore()?.[TRACE_SLOT] ?? ROOT_CONTEXT), next);
    };
  }
  // AsyncLocalStorageContextManager's binding of functions and event emitters calls `with` and `active`
  return new (class extends AsyncLocalStorageContextManager {
    override active(): Context {
      return storage.getStore()?.[TRACE_SLOT] ?? ROOT_CONTEXT;
    }
    override with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(ctx: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
      const outer = storage.getStore();
      const cb = thisArg == null ? fn : fn.bind(thisArg);
      return storage.run(slotted(outer?.em ?? NO_ENTITY_MANAGER, ctx), cb as (...a: A) => ReturnType<F>, ...args);
    }
    override disable(): this {
      return this;
    }
  })();
}

/** the slot of a MikroORM transaction context that holds the OpenTelemetry context (transactionSlotManager) */
const TRACE_SLOT = Symbol.for('bop.traceContext');

/**
 * Starts tracing in this thread when requested (see above), under `OTEL_SERVICE_NAME` or `serviceName`.
 * Answers the handle, or null when tracing is off. Calling it again answers the running one.
 */
export function startTracing(serviceName: string, env: Record<string, string | undefined> = process.env): TracingHandle | null {
  if (running) return running;
  if (!tracingRequested(env)) return null;
  // required here, not imported: with tracing off none of this is loaded
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { threadSpanExporter } = require('./span-export-thread') as typeof import('./span-export-thread');
  const { BatchSpanProcessor } = require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { ExpressInstrumentation } = require('@opentelemetry/instrumentation-express') as typeof import('@opentelemetry/instrumentation-express');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const api = require('@opentelemetry/api') as typeof import('@opentelemetry/api');
  const { ParentBasedSampler, TraceIdRatioBasedSampler, SamplingDecision } = require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');

  const ratio = samplingRatio(env);
  const edge = new EdgeSampling(ratio);
  // roots: the requests the edge chose, and the kit's own roots (a delivery of an untraced event …) at the ratio
  const byRatio = new TraceIdRatioBasedSampler(ratio);
  const root: import('@opentelemetry/sdk-trace-base').Sampler = {
    shouldSample: (ctx, traceId) => (edge.takeChosen() ? { decision: SamplingDecision.RECORD_AND_SAMPLED } : byRatio.shouldSample(ctx, traceId)),
    toString: () => `EdgeSampling{${ratio}}`,
  };

  // a call made outside any trace: the instrumentations leave it alone (see below)
  const untraced = () => !api.trace.isSpanContextValid(api.trace.getSpanContext(api.context.active()) ?? api.INVALID_SPAN_CONTEXT);

  // the active context: for the duration of `context.with` until a service starts here, then across awaits (threadContextManager)
  const contexts = threadContextManager();
  const sdk = new NodeSDK({
    contextManager: contexts.manager,
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || serviceName, 'service.namespace': 'bop-platform' }),
    // OTLP/HTTP JSON, its requests made from a thread of their own (span-export-thread.ts)
    spanProcessors: [new BatchSpanProcessor(threadSpanExporter(), batchSettings(env))],
    // OTEL_TRACES_SAMPLER's ratio, decided per request at the edge (EdgeSampling); a traced parent is followed
    sampler: new ParentBasedSampler({ root }),
    // traces only: metrics are Prometheus' (/api/metrics), logs pino's
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        // the kit makes the server spans of the requests it traces (serveTraced), and nothing for the others
        disableIncomingRequestInstrumentation: true,
        // the background loops' polling (the gateway's upstream checks, readiness) makes no root spans
        requireParentforOutgoingSpans: true,
        // and an untraced call is left alone: requireParentforOutgoingSpans alone still computes its
        // attributes, starts a no-op span, copies its headers and listens to its response
        ignoreOutgoingRequestHook: untraced,
      }),
      new ExpressInstrumentation(),
      // a span per query; the pool's connects make none (pool waits are in the metrics: db pool waiting)
      new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }),
      // the kit's own HTTP calls (the gateway's proxy, service-to-service commands) make their client
      // spans themselves (startClientSpan): undici's instrumentation listens to every request, traced or not
    ],
  });
  sdk.start();
  useEdgeSampling(edge);
  onAsyncTraceContext(contexts.hold);
  running = {
    shutdown: async () => {
      running = null;
      useEdgeSampling(null);
      onAsyncTraceContext(null);
      await sdk.shutdown();
    },
  };
  return running;
}
