/**
 * The OTLP span exporter of a traced thread (startTracing), with its HTTP requests made from a thread
 * of their own. The serving thread batches its spans (BatchSpanProcessor) and serializes each batch
 * with OpenTelemetry's own OTLP/HTTP JSON serializer, as the stock OTLPTraceExporter does; the bytes
 * then go, moved rather than copied, to an export thread that sends them with OpenTelemetry's own
 * HTTP export (OTEL_EXPORTER_OTLP_* endpoint, headers, compression and timeout; retries with backoff
 * on a retryable answer), and its outcome comes back as the batch's export result.
 *
 * Why not the stock exporter in the serving thread: its HTTP client requests made the serving
 * threads slower for every request, traced or not. With 10 % of GET /locations traced through the
 * gateway (the all-in-one runtime, `--trace-gc-nvp`, 2026-11-27) the gateway's thread promoted
 * 8.1 KB a request to the old generation instead of 0.85 KB without telemetry, and its scavenges took
 * 26 µs a request instead of 7; serializing the same batches without sending them, or sending them
 * from here, promoted 0.95 KB. And `--log-ic` showed node's http internals that every ServerResponse
 * passes through (OutgoingMessage's constructor, `_storeHeader`, `_send`, `end`, the stream writes)
 * going polymorphic once a ClientRequest ran in the thread. Neither happens with this exporter.
 *
 * The export thread starts with the first export (so a thread that never samples a trace has none),
 * is not what keeps a process alive except while an export is in flight, is started again if it
 * dies (the exports in flight fail, as a failed HTTP export would), and stops when the exporter
 * shuts down, after the exports in flight end.
 */
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { ExportResponse, IExporterTransport } from '@opentelemetry/otlp-exporter-base';
import type { Worker } from 'node:worker_threads';
import { diag } from '@opentelemetry/api';

/** the OpenTelemetry component type of an OTLP/HTTP span exporter (its self-observability metrics) */
const COMPONENT = 'otlp_http_span_exporter';

interface ExportRequest {
  id: number;
  data: Uint8Array;
}

interface ExportOutcome {
  id: number;
  ok: boolean;
  error?: string;
}

/**
 * The export thread's program. It runs from this function's source (Worker `eval`), so it may use
 * nothing from this module's scope: what it loads arrives as resolved paths in `workerData`.
 */
function exportThread(): void {
  const { parentPort, workerData } = require('node:worker_threads') as typeof import('node:worker_threads');
  const http = require(workerData.nodeHttp) as typeof import('@opentelemetry/otlp-exporter-base/node-http');
  // the bytes come serialized: the delegate's "serializer" passes them on
  const passOn = { serializeRequest: (bytes: Uint8Array) => bytes, deserializeResponse: () => ({}) };
  // the serving thread's delegate counts the spans (this thread has no meter provider: its metrics go nowhere)
  const counted = { name: 'span' as const, countItems: () => 0 };
  const options = http.convertLegacyHttpOptions({}, 'TRACES', 'v1/traces', { 'Content-Type': 'application/json' });
  const delegate = http.createOtlpHttpExportDelegate(options, passOn, workerData.component, counted, undefined);
  parentPort!.on('message', (m: ExportRequest) => {
    delegate.export(m.data, (result) => {
      const error = result.error === undefined ? undefined : String(result.error.message ?? result.error);
      parentPort!.postMessage({ id: m.id, ok: result.code === 0, error } satisfies ExportOutcome);
    });
  });
}

/**
 * The thread's transport for OpenTelemetry's export delegate: `send` hands the serialized batch to the
 * export thread and answers its outcome — a failure when the thread stops first, or when no outcome
 * comes within the export timeout (the thread's own export gives up by then), so that no export the
 * batch span processor counts as in flight is left hanging.
 */
class ExportThreadTransport implements IExporterTransport {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, { worker: Worker; done: (r: ExportResponse) => void }>();
  private next = 0;

  send(data: Uint8Array, timeoutMillis: number): Promise<ExportResponse> {
    const worker = (this.worker ??= this.start());
    const id = this.next++;
    // its own whole buffer, which can be moved to the thread (the serializer's usually is)
    const bytes = data.byteOffset === 0 && data.byteLength === data.buffer.byteLength ? data : data.slice();
    return new Promise<ExportResponse>((resolve) => {
      const timer = setTimeout(() => this.settle(id, { status: 'failure', error: new Error(`the span export thread gave no outcome within ${timeoutMillis} ms`) }), timeoutMillis + 1000);
      timer.unref();
      const done = (r: ExportResponse) => {
        clearTimeout(timer);
        resolve(r);
      };
      this.pending.set(id, { worker, done });
      worker.ref();
      worker.postMessage({ id, data: bytes } satisfies ExportRequest, [bytes.buffer as ArrayBuffer]);
    });
  }

  shutdown(): void {
    void this.worker?.terminate();
    this.worker = null;
  }

  /** ends export `id` with `outcome` (once), and lets the thread stop holding the process up when it has nothing in hand */
  private settle(id: number, outcome: ExportResponse): void {
    const entry = this.pending.get(id);
    if (entry === undefined) return;
    this.pending.delete(id);
    if (![...this.pending.values()].some((p) => p.worker === entry.worker)) entry.worker.unref();
    entry.done(outcome);
  }

  private start(): Worker {
    const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
    const worker = new Worker(`(${exportThread.toString()})()`, {
      eval: true,
      // the settings as this thread sees them (OTEL_EXPORTER_OTLP_*)
      env: { ...process.env },
      workerData: {
        nodeHttp: require.resolve('@opentelemetry/otlp-exporter-base/node-http'),
        component: COMPONENT,
      },
    });
    worker.unref();
    worker.on('message', (m: ExportOutcome) => {
      this.settle(m.id, m.ok ? { status: 'success' } : { status: 'failure', error: new Error(m.error ?? 'OTLP export failed') });
    });
    // a thread that dies fails what it had in hand; the next export starts another
    worker.on('error', (err) => diag.error('the span export thread failed', err));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = null;
      for (const [id, p] of [...this.pending]) if (p.worker === worker) this.settle(id, { status: 'failure', error: new Error('the span export thread stopped') });
    });
    return worker;
  }
}

/**
 * OpenTelemetry's OTLP/HTTP JSON span exporter with its requests sent from an export thread (see
 * above): the same settings (`OTEL_EXPORTER_OTLP_*` in the environment), the same bytes on the wire.
 */
export function threadSpanExporter(): SpanExporter {
  const { OTLPExporterBase, createOtlpNetworkExportDelegate } = require('@opentelemetry/otlp-exporter-base') as typeof import('@opentelemetry/otlp-exporter-base');
  const http = require('@opentelemetry/otlp-exporter-base/node-http') as typeof import('@opentelemetry/otlp-exporter-base/node-http');
  const { JsonTraceSerializer, TraceExporterMetricsHelper } = require('@opentelemetry/otlp-transformer') as typeof import('@opentelemetry/otlp-transformer');
  // the timeout and the limit of exports in flight, as the stock exporter reads them (the thread reads the rest)
  const options = http.convertLegacyHttpOptions({}, 'TRACES', 'v1/traces', {});
  const metrics = http.createOtlpHttpExporterMetrics(COMPONENT, TraceExporterMetricsHelper, options.url, undefined);
  return new OTLPExporterBase<ReadableSpan[]>(createOtlpNetworkExportDelegate(options, JsonTraceSerializer, metrics, new ExportThreadTransport()));
}
