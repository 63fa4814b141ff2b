import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';

/**
 * W3C trace context across the hops the HTTP instrumentation does not see (architecture: Events):
 * the outbox row keeps the `traceparent` of the transaction that wrote it, the relay copies it into the
 * bus message's headers, a consumer handles the message in a span under it, and what the handler
 * writes (outbox rows, webhook deliveries) carries the consumer's span on.
 *
 * Only `@opentelemetry/api` here: with tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT) no SDK is loaded,
 * every call below meets the API's no-op tracer and no span context is ever valid, so nothing is stored.
 */
export const tracer = trace.getTracer('bop-platform');

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
  return tracer.startActiveSpan(name, { kind: opts.kind ?? SpanKind.INTERNAL, attributes: opts.attributes }, parent, async (span) => {
    try {
      return await work(span);
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
      throw err;
    } finally {
      span.end();
    }
  });
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
export function nameServerSpan(service: string, method: string, route: string): void {
  const span = trace.getActiveSpan();
  if (span === undefined || !span.isRecording()) return;
  span.updateName(`${method} ${route}`);
  span.setAttribute('http.route', route);
  span.setAttribute('bop.service', service);
}

export { SpanKind, SpanStatusCode, type Span };
