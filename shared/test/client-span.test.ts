/**
 * The platform's own HTTP calls (the gateway's proxy, service-to-service commands) in CLIENT spans
 * when the calling work is traced (startClientSpan), and no tracing work at all when it is not.
 * The SDK's Node tracer provider (AsyncLocalStorage context, W3C propagation) with its in-memory
 * exporter; the OTLP export of the runtime's spans is test/tracing.test.ts'.
 */
import { node, tracing } from '@opentelemetry/sdk-node';
import { inSpan, startClientSpan, SpanKind, SpanStatusCode } from '../src/telemetry/trace-context';

const exporter = new tracing.InMemorySpanExporter();
const provider = new node.NodeTracerProvider({ spanProcessors: [new tracing.SimpleSpanProcessor(exporter)] });

describe('startClientSpan', () => {
  beforeAll(() => {
    provider.register();
  });

  afterAll(async () => {
    await provider.shutdown();
  });

  it('does nothing outside traced work: no span, and a caller’s own trace context passes as it is', () => {
    const headers = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00', tracestate: 'vendor=1' };
    expect(startClientSpan('GET', 'http://127.0.0.1:3101/locations', headers)).toBeNull();
    expect(headers).toEqual({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00', tracestate: 'vendor=1' });
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });

  it('makes a client span under the traced work, whose trace context replaces the caller’s; 4xx/5xx and errors are errors', async () => {
    const ok: Record<string, string> = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', tracestate: 'vendor=1' };
    const refused: Record<string, string> = {};
    const failed: Record<string, string> = {};
    let work = { traceId: '', spanId: '' };
    await inSpan('work', {}, async (span) => {
      work = span.spanContext();
      await new Promise((r) => setTimeout(r, 5)); // the context outlives an await
      startClientSpan('POST', 'http://127.0.0.1:3101/sales/transactions:batch', ok)!.end(202);
      startClientSpan('GET', 'https://inventory.internal/stock-levels', refused)!.end(503);
      const call = startClientSpan('GET', 'http://127.0.0.1:9/items', failed)!;
      call.end(null, new TypeError('fetch failed'));
      call.end(200); // once only
    });

    const spans = exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.CLIENT);
    expect(spans).toHaveLength(3);
    const byUrl = (url: string) => spans.find((s) => s.attributes['url.full'] === url)!;
    for (const s of spans) {
      expect(s.spanContext().traceId).toBe(work.traceId);
      expect(s.parentSpanContext?.spanId).toBe(work.spanId);
    }

    const okSpan = byUrl('http://127.0.0.1:3101/sales/transactions:batch');
    expect(okSpan.name).toBe('POST');
    expect(okSpan.attributes).toMatchObject({ 'http.request.method': 'POST', 'server.address': '127.0.0.1', 'server.port': 3101, 'http.response.status_code': 202 });
    expect(okSpan.status.code).toBe(SpanStatusCode.UNSET);
    // the callee continues this span; the caller's own context is not passed on
    expect(ok.traceparent).toBe(`00-${work.traceId}-${okSpan.spanContext().spanId}-01`);
    expect(ok.tracestate).toBeUndefined();

    const refusedSpan = byUrl('https://inventory.internal/stock-levels');
    expect(refusedSpan.attributes).toMatchObject({ 'server.address': 'inventory.internal', 'server.port': 443, 'http.response.status_code': 503, 'error.type': '503' });
    expect(refusedSpan.status.code).toBe(SpanStatusCode.ERROR);
    expect(refused.traceparent).toBe(`00-${work.traceId}-${refusedSpan.spanContext().spanId}-01`);

    const failedSpan = byUrl('http://127.0.0.1:9/items');
    expect(failedSpan.attributes).toMatchObject({ 'error.type': 'TypeError' });
    expect(failedSpan.attributes['http.response.status_code']).toBeUndefined();
    expect(failedSpan.status).toEqual({ code: SpanStatusCode.ERROR, message: 'fetch failed' });
    expect(failedSpan.events.map((e) => e.name)).toEqual(['exception']);
  });
});
