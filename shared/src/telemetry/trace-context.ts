import type { IncomingMessage, ServerResponse } from 'node:http';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';

/**
 * Which requests are traced and their server spans (EdgeSampling, serveTraced), and W3C trace
 * context across the hops the HTTP instrumentation does not see (architecture: Events):
 * the outbox row keeps the `traceparent` of the transaction that wrote it, the relay copies it into the
 * bus message's headers, a consumer handles the message in a span under it, and what the handler
 * writes (outbox rows, webhook deliveries) carries the consumer's span on.
 *
 * Only `@opentelemetry/api` here: with tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT) no SDK is loaded,
 * every call below meets the API's no-op tracer and no span context is ever valid, so nothing is stored.
 */
export const tracer = trace.getTracer('bop-platform');

const QUIET_PATHS = /^\/(api\/)?(health|ready|metrics)\/?(\?|$)/;
const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-([0-9a-f]{2})$/;
/** the kit's internal-token header (auth.ts; not imported here: nothing may load before the instrumentations) */
const INTERNAL_TOKEN = 'x-internal-token';

/** The share of root traces OTEL_TRACES_SAMPLER (and _ARG) asks for, and the root sampler it names. */
export function samplingRatio(env: Record<string, string | undefined> = process.env): number {
  const sampler = (env.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on').trim().toLowerCase();
  if (sampler === 'always_off' || sampler === 'parentbased_always_off') return 0;
  if (sampler === 'traceidratio' || sampler === 'parentbased_traceidratio') {
    const arg = Number(env.OTEL_TRACES_SAMPLER_ARG ?? '1');
    return Number.isFinite(arg) ? Math.min(1, Math.max(0, arg)) : 1;
  }
  return 1;
}

/**
 * Which incoming requests are traced, decided before any tracing work is done for them (serveTraced:
 * an untraced request runs with no span, so pg and undici make none under it either). A request
 * carrying a W3C `traceparent` follows its sampled flag; a platform hop (an internal token) without
 * one belongs to a request its caller did not trace; any other request is a root, traced at the
 * configured ratio. Instrumenting every request and letting the sampler drop nine in ten cost a
 * quarter of the read path's throughput, and the HTTP instrumentation's work for requests it was told
 * to ignore a fifth of the gateway path's CPU (`npm run bench`, A/B of two runtimes, 2026-11-25).
 */
export class EdgeSampling {
  /** set by `ignore` for the request whose server span serveTraced starts next (same tick) */
  private chosen = false;

  constructor(private readonly ratio: number) {}

  /** true = not traced */
  ignore(req: IncomingMessage): boolean {
    this.chosen = false;
    if (QUIET_PATHS.test(req.url ?? '')) return true;
    const parent = req.headers.traceparent;
    const m = typeof parent === 'string' ? TRACEPARENT.exec(parent.trim()) : null;
    if (m) return (parseInt(m[1], 16) & 1) === 0;
    if (req.headers[INTERNAL_TOKEN] !== undefined) return true;
    if (this.ratio <= 0 || (this.ratio < 1 && Math.random() >= this.ratio)) return true;
    this.chosen = true;
    return false;
  }

  /** whether the root span being started is the server span of a request the hook chose (and forget it) */
  takeChosen(): boolean {
    const chosen = this.chosen;
    this.chosen = false;
    return chosen;
  }
}

/** the running SDK's edge decision (startTracing); null while tracing is off */
let sampling: EdgeSampling | null = null;

/** Registers the edge decision of the SDK just started (null: tracing stopped). */
export function useEdgeSampling(edge: EdgeSampling | null): void {
  sampling = edge;
}

/**
 * Handles an incoming request (the gateway's or a service's request path) inside an HTTP SERVER span
 * when the request is traced (EdgeSampling; it continues the caller's `traceparent`), else as it is:
 * with tracing off or the request not chosen, no tracing work is done at all. The span is named by
 * route template later (nameServerSpan) and ends when the answer is sent or the connection closes.
 */
export function serveTraced(req: IncomingMessage, res: ServerResponse, handle: () => void): void {
  if (sampling === null || sampling.ignore(req)) {
    handle();
    return;
  }
  const parent = propagation.extract(ROOT_CONTEXT, req.headers);
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const span = tracer.startSpan(
    req.method ?? 'GET',
    {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': req.method ?? 'GET',
        'url.path': q < 0 ? url : url.slice(0, q),
        'url.scheme': 'http',
        'server.address': req.headers.host ?? '',
        'user_agent.original': req.headers['user-agent'] ?? '',
        // no `network.peer.address`: reading a socket's remote address caches it on the socket
        // (`_peername`), and sockets that only traced requests did that to took shapes of their own,
        // which made node's http and stream code megamorphic for every request (`--log-ic`)
      },
    },
    parent,
  );
  res.once('close', () => {
    span.setAttribute('http.response.status_code', res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    if (!res.writableFinished) span.setAttribute('http.aborted', true);
    span.end();
  });
  const ctx = trace.setSpan(parent, span);
  REQUEST_CONTEXT.set(req, ctx);
  context.with(ctx, handle);
}

/**
 * Each traced request's context, beside the request rather than on it: a property added to the traced
 * requests' IncomingMessage only would give them a shape of their own, and every inline cache in the
 * `http` and express code those objects pass through would see both.
 */
const REQUEST_CONTEXT = new WeakMap<IncomingMessage, Context>();

/**
 * The trace context serveTraced started for this request (undefined when the request is not traced):
 * what the gateway's calls continue, its thread carrying no context across awaits (see
 * useAsyncTraceContext).
 */
export function requestTraceContext(req: IncomingMessage): TraceContext | undefined {
  return REQUEST_CONTEXT.get(req);
}

/** An OpenTelemetry context (a request's trace context: requestTraceContext). */
export type TraceContext = Context;

/** what startTracing registered to carry this thread's trace context across awaits (null while tracing is off) */
let toAsyncContext: AsyncTraceContext | null = null;

/** The running SDK's switch to a context carried across awaits (startTracing): see useAsyncTraceContext. */
export interface AsyncTraceContext {
  /** a service starts in this thread: its traced work needs its context across awaits */
  use(): void;
}

/** Registers the running SDK's switch (startTracing; null: tracing stopped). */
export function onAsyncTraceContext(hold: AsyncTraceContext | null): void {
  toAsyncContext = hold;
}

/**
 * A service starts in this thread (startService): its traced work — handlers, their queries and
 * calls, the outbox rows they write, consumers — finds its trace context across awaits from now on,
 * carried in MikroORM's transaction AsyncLocalStorage (threadContextManager in tracing.ts). Until
 * then (the gateway's thread, which never starts a service) the active context lasts only while
 * `context.with` runs, and the gateway hands each request's context to its calls explicitly
 * (requestTraceContext): an AsyncLocalStorage in use installs V8's promise hooks, which slow every
 * promise and await in the thread, traced or not — through the gateway at 10 % sampling, 6.4 % of
 * the throughput and 57 µs a request of the gateway's thread (A/B of two runtimes side by side, GET
 * /locations, 2026-11-27).
 */
export function useAsyncTraceContext(): void {
  toAsyncContext?.use();
}

/** An outgoing call's CLIENT span (startClientSpan): ended once, with the answer's status or the error. */
export interface ClientSpan {
  end(status: number | null, error?: unknown): void;
}

/**
 * An HTTP call the platform makes to itself (the gateway's proxy and its calls to identity, a
 * service's command to another) in a CLIENT span under the work making it, when that work is traced:
 * the span's `traceparent` replaces any in `headers` (a caller's `tracestate` goes too), so the callee
 * continues this trace. When nothing is traced it answers null and does nothing else: the call goes
 * as it is, with no tracing work at all. The caller's context is `under` when given (the gateway's:
 * requestTraceContext), else the active one.
 *
 * The kit's call sites make these spans rather than OpenTelemetry's undici instrumentation, which
 * listens to every request undici makes through diagnostics channels, traced or not: through the
 * gateway at 10 % sampling it cost about 40 µs a request on the gateway's thread (A/B of two runtimes
 * side by side, one without it, GET /locations, 2026-11-27).
 */
export function startClientSpan(method: string, url: string, headers: Record<string, string | string[] | undefined>, under?: TraceContext): ClientSpan | null {
  const ctx = under ?? context.active();
  const parent = trace.getSpan(ctx);
  if (parent === undefined || !parent.isRecording()) return null;
  const attributes: Attributes = { 'http.request.method': method, 'url.full': url };
  try {
    const u = new URL(url);
    attributes['server.address'] = u.hostname;
    attributes['server.port'] = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
  } catch {
    // a relative or broken URL: the call itself will say so
  }
  const span = tracer.startSpan(method, { kind: SpanKind.CLIENT, attributes }, ctx);
  delete headers.traceparent;
  delete headers.tracestate;
  propagation.inject(trace.setSpan(ctx, span), headers);
  let ended = false;
  return {
    end(status, error) {
      if (ended) return;
      ended = true;
      if (status !== null) span.setAttribute('http.response.status_code', status);
      if (error !== undefined) {
        const e = error as Error;
        span.recordException(e);
        span.setAttribute('error.type', e?.name ?? 'Error');
        span.setStatus({ code: SpanStatusCode.ERROR, message: e?.message });
      } else if (status !== null && status >= 400) {
        span.setAttribute('error.type', String(status));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    },
  };
}

/** The active span's `traceparent` (W3C), or null when nothing is being traced. */
export function currentTraceParent(): string | null {
  const span = trace.getActiveSpan();
  if (span === undefined) return null;
  const sc = span.spanContext();
  if (!trace.isSpanContextValid(sc)) return null;
  return `00-${sc.traceId}-${sc.spanId}-0${(sc.traceFlags & 1).toString(16)}`;
}

/** The context a stored or received `traceparent` continues (the root context when there is none). */
export function contextOf(traceParent: string | null | undefined): Context {
  if (!traceParent) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, { traceparent: traceParent });
}

/**
 * Runs `work` in a new span under `parent` (a stored `traceparent`, or the active context when
 * undefined), ending it when `work` settles; an error is recorded on the span and rethrown.
 */
export async function inSpan<T>(
  name: string,
  opts: { parent?: string | null; kind?: SpanKind; attributes?: Attributes },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = opts.parent === undefined ? context.active() : contextOf(opts.parent);
  const span = tracer.startSpan(name, { kind: opts.kind ?? SpanKind.INTERNAL, attributes: opts.attributes }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => work(span));
  } catch (err) {
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
    throw err;
  } finally {
    span.end();
  }
}

/** Starts (and does not end) a span under a stored `traceparent`: for work that spans several calls. */
export function startSpan(name: string, parent: string | null | undefined, kind: SpanKind, attributes?: Attributes, startTime?: Date): Span {
  return tracer.startSpan(name, { kind, attributes, startTime }, contextOf(parent));
}

/** Runs `fn` with `span` active (so spans, outbox rows and deliveries made inside continue it). */
export function withActiveSpan<T>(span: Span, fn: () => T): T {
  return context.with(trace.setSpan(context.active(), span), fn);
}

/**
 * Names the HTTP server span of the request being handled by its route template (`POST
 * /sales/transactions:batch`, not the URL with ids) and says which part of the platform answered:
 * in the all-in-one runtime every service shares the process's resource, so `bop.service` tells them apart.
 */
export function nameServerSpan(service: string, method: string, route: string, req?: IncomingMessage): void {
  const ctx = req === undefined ? undefined : requestTraceContext(req);
  const span = ctx === undefined ? trace.getActiveSpan() : trace.getSpan(ctx);
  if (span === undefined || !span.isRecording()) return;
  span.updateName(`${method} ${route}`);
  span.setAttribute('http.route', route);
  span.setAttribute('bop.service', service);
}

export { SpanKind, SpanStatusCode, type Span };
