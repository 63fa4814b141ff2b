/**
 * Telemetry on and off in one bench run (issue 15: tracing costs under 5% of throughput at 10%
 * sampling): a local OTLP/HTTP receiver that takes the runtime's span exports and counts them, and
 * the settings that point the runtime at it.
 *
 *   BENCH_TELEMETRY=both (default) | off | on     BENCH_TRACE_RATIO=0.1 (the sampled share of new traces)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type TelemetryMode = 'off' | 'on';

/** The modes this run measures, in order (off first: the baseline). */
export function telemetryModes(): TelemetryMode[] {
  const m = process.env.BENCH_TELEMETRY ?? 'both';
  if (m === 'off' || m === 'on') return [m];
  if (m !== 'both') throw new Error(`BENCH_TELEMETRY=${m}: use both, off or on`);
  return ['off', 'on'];
}

export const traceRatio = Number(process.env.BENCH_TRACE_RATIO ?? 0.1);

/**
 * How long a path that tracing is measured on is loaded before its rounds (BENCH_WARMUP_SECONDS,
 * default 30), telemetry off and on alike. In a process's first half-minute of load the tracing code
 * (the spans, their serialization, the export thread) is still being optimized by V8, and tracing
 * costs about 4 points more than afterwards, at 10 % and at 100 % sampling alike (bench/README.md,
 * Tracing cost: the figures of 2026-11-27); loads that start 2 s after a process starts measure that. A server
 * runs for days: its steady state is the throughput the target speaks of.
 */
export const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 30);

export interface OtlpReceiver {
  /** the runtime's environment for this mode (empty when off) */
  env: Record<string, string>;
  /** export requests and bytes received so far */
  received(): { requests: number; bytes: number };
  close(): Promise<void>;
}

/** For `on`, a receiver on 127.0.0.1 and the OTEL_* settings naming it; for `off`, nothing. */
export async function telemetryFor(mode: TelemetryMode): Promise<OtlpReceiver> {
  if (mode === 'off') return { env: {}, received: () => ({ requests: 0, bytes: 0 }), close: async () => undefined };
  let requests = 0;
  let bytes = 0;
  const server = http.createServer((req, res) => {
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => {
      requests += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: String(traceRatio),
    },
    received: () => ({ requests, bytes }),
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

export const telemetryLabel = (mode: TelemetryMode): string => (mode === 'off' ? 'telemetry off' : `tracing on (OTLP to a local receiver, ${traceRatio * 100}% of traces sampled)`);

/** One line: what tracing costs in throughput, from the ratio on / off of loads made side by side. */
export function telemetryCost(what: string, ratio: number): string {
  return `  ${what}: ${(ratio * 100).toFixed(1)}% of the throughput with telemetry off (cost ${(100 - ratio * 100).toFixed(1)}%, target < 5%)`;
}

/** Stops a runtime started for one mode, then its OTLP receiver (a bench's teardown, also after a failed set-up). */
export async function stopWithTelemetry(rt: { stop(): Promise<void> }, telemetry: OtlpReceiver): Promise<void> {
  await rt.stop();
  await telemetry.close();
}
