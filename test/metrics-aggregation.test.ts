/**
 * The all-in-one runtime's scrape merges its worker threads' registries into the main thread's
 * (shared/src/telemetry/metrics.ts): a real worker thread builds a prom-client registry and hands its
 * JSON over, as runtime/src/worker.ts does.
 */
import { Worker } from 'node:worker_threads';
import { Counter, Registry } from 'prom-client';
import { addMetricsSource, aggregateMetrics, collectMetricsText, enableMetrics, recordHttp, type MetricsJson } from '@bop/shared';
import { histogramCount, parseMetrics, total } from './prometheus-text';

const WORKER = `
const { parentPort } = require('node:worker_threads');
const { Counter, Registry } = require('prom-client');
const registry = new Registry();
registry.setDefaultLabels({ thread: 'worker-1' });
const c = new Counter({ name: 'bop_http_requests_total', help: 'h', labelNames: ['service', 'route', 'method', 'status_class'], registers: [registry] });
c.inc({ service: 'inventory', route: '/items', method: 'GET', status_class: '2xx' }, 3);
parentPort.on('message', async () => parentPort.postMessage(await registry.getMetricsAsJSON()));
`;

function workerRegistry(): { metrics: () => Promise<MetricsJson>; stop: () => Promise<number> } {
  const worker = new Worker(WORKER, { eval: true });
  return {
    metrics: () =>
      new Promise((resolve) => {
        worker.once('message', resolve);
        worker.postMessage('metrics');
      }),
    stop: () => worker.terminate(),
  };
}

describe('metrics across threads', () => {
  it('sums series with the same labels and keeps the others side by side', async () => {
    const registry = (thread: string, n: number) => {
      const r = new Registry();
      r.setDefaultLabels({ thread });
      new Counter({ name: 'bop_ingest_records_total', help: 'h', labelNames: ['endpoint', 'result'], registers: [r] }).inc({ endpoint: 'POST /sales/transactions:batch', result: 'created' }, n);
      return r;
    };
    const merged = aggregateMetrics([
      (await registry('main', 2).getMetricsAsJSON()) as MetricsJson,
      (await registry('worker-1', 5).getMetricsAsJSON()) as MetricsJson,
      (await registry('main', 1).getMetricsAsJSON()) as MetricsJson,
    ]);
    const families = parseMetrics(await merged.metrics());
    expect(total(families, 'bop_ingest_records_total', { thread: 'main' })).toBe(3);
    expect(total(families, 'bop_ingest_records_total', { thread: 'worker-1' })).toBe(5);
    expect(total(families, 'bop_ingest_records_total', { result: 'created' })).toBe(8);
  });

  it("a scrape holds this thread's series and a worker thread's", async () => {
    enableMetrics();
    recordHttp('sales', '/sales/transactions:batch', 'POST', 202, 0.01);
    const worker = workerRegistry();
    const drop = addMetricsSource(worker.metrics);
    try {
      const text = await collectMetricsText();
      const families = parseMetrics(text);
      expect(total(families, 'bop_http_requests_total', { thread: 'worker-1', service: 'inventory', status_class: '2xx' })).toBe(3);
      expect(total(families, 'bop_http_requests_total', { thread: 'main', service: 'sales', route: '/sales/transactions:batch', status_class: '2xx' })).toBe(1);
      expect(histogramCount(text, families, 'bop_http_request_duration_seconds', { thread: 'main', service: 'sales' })).toBe(1);
      // prom-client's process metrics: memory and event-loop lag
      expect(families.get('process_resident_memory_bytes')).toBeDefined();
      expect(families.get('nodejs_eventloop_lag_seconds')).toBeDefined();
    } finally {
      drop();
      await worker.stop();
    }
  });

  it('a source that never answers leaves its series out instead of stalling the scrape', async () => {
    const drop = addMetricsSource(() => new Promise<MetricsJson>(() => undefined));
    try {
      const families = parseMetrics(await collectMetricsText(100));
      expect(families.has('bop_http_requests_total')).toBe(true);
    } finally {
      drop();
    }
  });
});
