/**
 * The span exporter whose OTLP/HTTP requests leave from an export thread (span-export-thread.ts):
 * a real local OTLP receiver gets the batch as the stock exporter sends it (path, content type, JSON
 * body), a refusal or an unreachable collector fails the batch's export instead of hanging it, and a
 * shut-down exporter leaves no thread behind.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { threadSpanExporter } from '../src/telemetry/span-export-thread';

interface Received {
  path: string;
  contentType: string;
  body: any;
}

const ENV = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TIMEOUT'];

/** finished spans, made as a traced request's would be */
function spans(...names: string[]): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] }).getTracer('bop-platform');
  for (const name of names) tracer.startSpan(name, { attributes: { 'http.route': `/${name}` } }).end();
  return memory.getFinishedSpans();
}

function exported(exporter: SpanExporter, batch: ReadableSpan[]): Promise<{ code: number; error?: Error }> {
  return new Promise((resolve) => exporter.export(batch, resolve));
}

async function waitUntil(ok: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** an exporter aimed at `endpoint` (the settings are read from the environment, as OpenTelemetry's are) */
function exporterFor(endpoint: string): SpanExporter {
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = endpoint;
  process.env.OTEL_EXPORTER_OTLP_TIMEOUT = '2000';
  return threadSpanExporter();
}

describe('the span export thread', () => {
  let receiver: http.Server;
  let endpoint: string;
  let status = 200;
  const received: Received[] = [];

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ path: req.url ?? '', contentType: String(req.headers['content-type']), body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });

  afterEach(() => {
    for (const k of ENV) delete process.env[k];
    status = 200;
    received.length = 0;
  });

  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise((r) => receiver.close(r));
  });

  it('sends each batch to the collector as OTLP/HTTP JSON and answers success', async () => {
    const exporter = exporterFor(endpoint);
    const first = spans('GET /locations', 'GET /api/v1/locations');
    expect(await exported(exporter, first)).toEqual({ code: 0 });
    expect(await exported(exporter, spans('POST /sales/transactions:batch'))).toEqual({ code: 0 });
    await exporter.shutdown();

    expect(received.map((r) => [r.path, r.contentType])).toEqual([
      ['/v1/traces', 'application/json'],
      ['/v1/traces', 'application/json'],
    ]);
    const sent = received[0].body.resourceSpans[0].scopeSpans[0];
    expect(sent.scope.name).toBe('bop-platform');
    expect(sent.spans.map((s: any) => [s.name, s.traceId, s.spanId])).toEqual(first.map((s) => [s.name, s.spanContext().traceId, s.spanContext().spanId]));
    expect(sent.spans[0].attributes).toEqual([{ key: 'http.route', value: { stringValue: '/GET /locations' } }]);
    expect(received[1].body.resourceSpans[0].scopeSpans[0].spans.map((s: any) => s.name)).toEqual(['POST /sales/transactions:batch']);
  });

  it('fails the export of a batch the collector refuses', async () => {
    status = 400;
    const exporter = exporterFor(endpoint);
    const result = await exported(exporter, spans('GET /locations'));
    await exporter.shutdown();
    expect(result.code).toBe(1);
    expect(result.error?.message).toMatch(/400|Bad Request/);
    expect(received).toHaveLength(1);
  });

  it('fails, within the export timeout, the export to a collector that is not there', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));

    const exporter = exporterFor(`http://127.0.0.1:${port}`);
    // a refused connection fails the export (it does not hang past the test's timeout)
    const result = await exported(exporter, spans('GET /locations'));
    await exporter.shutdown();
    expect(result.code).toBe(1);
    expect(result.error).toBeInstanceOf(Error);
  });

  it('fails the export to a collector that never answers once the export timeout has passed', async () => {
    const silent = http.createServer(() => undefined); // takes the request, never answers
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      process.env.OTEL_EXPORTER_OTLP_TIMEOUT = '500';
      const exporter = threadSpanExporter();
      // the 500 ms export timeout fails it; without it the export would wait past the test's timeout
      const result = await exported(exporter, spans('GET /locations'));
      expect(result.code).toBe(1);
      await exporter.shutdown();
    } finally {
      silent.closeAllConnections();
      await new Promise((r) => silent.close(r));
    }
  });

  it('starts no thread before the first export and none is left after shutdown', async () => {
    // this process's threads by id (Linux: one entry per thread; the platform runs on Linux), so that
    // threads an earlier test file left winding down in this jest worker do not count
    const threads = () => new Set(fs.readdirSync('/proc/self/task'));
    const before = threads();
    const added = () => [...threads()].filter((t) => !before.has(t));
    const exporter = exporterFor(endpoint);
    expect(added()).toEqual([]);
    expect(await exported(exporter, spans('GET /locations'))).toEqual({ code: 0 });
    const started = added();
    expect(started.length).toBeGreaterThanOrEqual(1);
    await exporter.shutdown();
    // the export thread ends (threads the process keeps for good, such as libuv's pool, may stay)
    await waitUntil(() => started.filter((t) => fs.existsSync(`/proc/self/task/${t}`)).length === started.length - 1);
  });
});
