/**
 * OpenTelemetry traces (issue 15 item 2): the all-in-one runtime exports OTLP/HTTP to a local receiver,
 * one sales batch goes in through the gateway under a trace the client starts (`traceparent`), and
 * that one trace id spans the gateway, sales, the outbox → bus hop, inventory's consumer (depletion),
 * its own outbox → bus hop, the webhooks fan-out and the delivery attempt to a real receiver — which
 * gets the trace context too. Runs the compiled runtime (`npm test` builds first).
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { batchSettings } from '@bop/shared/dist/telemetry/tracing';
import { must, sale, startStack, waitFor, type Stack } from './faults/support';

jest.setTimeout(180_000);

interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  service: string;
  attributes: Record<string, unknown>;
}

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
const valueOf = (v: OtlpValue): unknown => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue));
const attributesOf = (list: Array<{ key: string; value: OtlpValue }> = []) => Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

/** OTLP/HTTP JSON (ExportTraceServiceRequest) → flat spans. */
function spansOf(body: any): ExportedSpan[] {
  const out: ExportedSpan[] = [];
  for (const rs of body.resourceSpans ?? []) {
    const resource = attributesOf(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        out.push({ traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId ?? '', name: s.name, kind: s.kind, service: String(resource['service.name']), attributes: attributesOf(s.attributes) });
      }
    }
  }
  return out;
}

const SPAN_KIND = { SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 };

describe('traces: one record from the gateway to a webhook delivery', () => {
  let stack: Stack;
  let collector: http.Server;
  let receiver: http.Server;
  const spans: ExportedSpan[] = [];
  const exports: Array<{ path: string; contentType: string }> = [];
  const deliveries: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];

  beforeAll(async () => {
    collector = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        exports.push({ path: req.url ?? '', contentType: String(req.headers['content-type']) });
        try {
          spans.push(...spansOf(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
        } catch {
          // counted in `exports`; the assertions below name what is missing
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    stack = await startStack({
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
      OTEL_TRACES_SAMPLER: 'parentbased_always_on',
      OTEL_BSP_SCHEDULE_DELAY: '200',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_ALLOW_HTTP: 'true',
    });
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    for (const s of [collector, receiver]) {
      s?.closeAllConnections();
      await new Promise((r) => s?.close(r));
    }
  });

  it('follows a sale through gateway → sales → outbox/bus → inventory → webhooks → the delivery attempt', async () => {
    const base = stack.rt.base;
    const endpoint = await must(base, 'POST', '/api/v1/webhook-endpoints', { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: ['stock.level_changed'] }, stack.session);

    // the client starts the trace: the gateway continues it (W3C trace context)
    const traceId = randomBytes(16).toString('hex');
    const clientSpanId = randomBytes(8).toString('hex');
    const res = await fetch(`${base}/api/v1/sales/transactions:batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.key}`, traceparent: `00-${traceId}-${clientSpanId}-01` },
      body: JSON.stringify({ source: 'trace-pos', transactions: [sale('TRACE-1', stack.sku, 3)] }),
    });
    expect(res.status).toBe(202);
    expect(((await res.json()) as any).created).toBe(1);

    // the sale depleted the item (−1 from the probe's −1) and the level change was delivered
    const delivery = await waitFor(60_000, async () =>
      deliveries.find((d) => {
        const e = JSON.parse(d.body);
        return e.type === 'stock.level_changed' && e.data?.object?.itemId === stack.itemId && Number(e.data.object.onHand) === -2;
      }),
    );
    expect(delivery).toBeTruthy();
    // the receiver got the trace context of the delivery attempt (its span in our trace)
    expect(String(delivery!.headers.traceparent)).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));

    const inTrace = () => spans.filter((s) => s.traceId === traceId);
    const find = (pred: (s: ExportedSpan) => boolean) => inTrace().find(pred);
    const attempt = await waitFor(20_000, async () => find((s) => s.name === 'webhook deliver stock.level_changed'));
    expect(attempt).toBeTruthy();
    // every span asserted below exported (the batches of several threads arrive in any order)
    const isQuery = (s: ExportedSpan) => s.attributes['db.system'] === 'postgresql' || s.attributes['db.system.name'] === 'postgresql';
    const exportedAll = await waitFor(20_000, async () => {
      const server = (service: string) => find((s) => s.kind === SPAN_KIND.SERVER && s.attributes['bop.service'] === service);
      const salesSpan = server('sales');
      const depletionSpan = find((s) => s.name === 'process sales.transactions.recorded' && s.attributes['bop.service'] === 'inventory');
      return Boolean(
        server('gateway') &&
          salesSpan &&
          inTrace().some((s) => s.spanId === salesSpan.parentSpanId) &&
          inTrace().some((s) => isQuery(s) && s.parentSpanId === salesSpan.spanId && /^pg\.query:INSERT\b/.test(s.name)) &&
          find((s) => s.name === 'publish sales.transactions.recorded') &&
          depletionSpan &&
          inTrace().some((s) => isQuery(s) && s.parentSpanId === depletionSpan.spanId) &&
          find((s) => s.name === 'publish stock.level_changed') &&
          find((s) => s.name === 'process stock.level_changed' && s.attributes['bop.service'] === 'webhooks'),
      );
    });
    expect(exportedAll).toBe(true);

    const names = inTrace().map((s) => `${s.attributes['bop.service'] ?? '-'} ${s.name}`);
    const gateway = find((s) => s.kind === SPAN_KIND.SERVER && s.attributes['bop.service'] === 'gateway');
    expect({ names, gateway: gateway?.name }).toMatchObject({ gateway: 'POST /api/v1/sales/transactions:batch' });
    expect(gateway!.parentSpanId).toBe(clientSpanId);
    expect(gateway!.attributes['http.route']).toBe('/api/v1/sales/transactions:batch');

    // gateway → sales over HTTP: the proxy's client span, then sales' server span under it
    const salesServer = find((s) => s.kind === SPAN_KIND.SERVER && s.attributes['bop.service'] === 'sales');
    expect(salesServer?.name).toBe('POST /sales/transactions:batch');
    const proxyCall = inTrace().find((s) => s.spanId === salesServer!.parentSpanId);
    expect(proxyCall?.kind).toBe(SPAN_KIND.CLIENT);
    expect(proxyCall?.parentSpanId).toBe(gateway!.spanId);
    expect(proxyCall?.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.response.status_code': 202, 'url.full': expect.stringMatching(/\/sales\/transactions:batch$/) });
    // sales' queries under its request, those of its transaction included (the context follows awaits in a service's thread)
    const salesQueries = inTrace().filter((s) => isQuery(s) && s.parentSpanId === salesServer!.spanId);
    expect(salesQueries.map((s) => s.name)).toEqual(expect.arrayContaining([expect.stringMatching(/^pg\.query:BEGIN\b/), expect.stringMatching(/^pg\.query:INSERT\b/)]));

    // outbox → bus: the relay's publish span under the request that wrote the event
    const published = find((s) => s.name === 'publish sales.transactions.recorded');
    expect(published).toMatchObject({ kind: SPAN_KIND.PRODUCER, attributes: expect.objectContaining({ 'bop.service': 'sales', 'messaging.destination.name': 'sales' }) });
    expect(inTrace().some((s) => s.spanId === published!.parentSpanId)).toBe(true);

    // the consuming service: inventory depletes the sale under that trace, and its own event goes on
    const depletion = find((s) => s.name === 'process sales.transactions.recorded' && s.attributes['bop.service'] === 'inventory');
    expect(depletion).toMatchObject({ kind: SPAN_KIND.CONSUMER, attributes: expect.objectContaining({ 'messaging.consumer.group.name': 'inventory.sales-depletion' }) });
    const levelPublished = find((s) => s.name === 'publish stock.level_changed');
    expect(levelPublished?.attributes['bop.service']).toBe('inventory');
    expect(levelPublished!.parentSpanId).toBe(depletion!.spanId);
    // the consumer's queries for that event under its span
    expect(inTrace().some((s) => isQuery(s) && s.parentSpanId === depletion!.spanId)).toBe(true);

    // webhooks: the fan-out consumer queues the delivery, the attempt is a span under it
    const fanOut = find((s) => s.name === 'process stock.level_changed' && s.attributes['bop.service'] === 'webhooks');
    expect(fanOut?.parentSpanId).toBe(levelPublished!.parentSpanId);
    expect(attempt!.parentSpanId).toBe(fanOut!.spanId);
    expect(attempt).toMatchObject({
      kind: SPAN_KIND.CLIENT,
      attributes: expect.objectContaining({ 'webhook.endpoint.id': endpoint.id, 'webhook.attempt': 1, 'http.response.status_code': 200, 'webhook.event.type': 'stock.level_changed' }),
    });
    // the receiver continues the attempt's span
    expect(String(delivery!.headers.traceparent)).toBe(`00-${traceId}-${attempt!.spanId}-01`);

    // exported as OTLP/HTTP JSON to the standard path; health and readiness polls made no spans
    expect(exports.every((e) => e.path === '/v1/traces' && e.contentType.startsWith('application/json'))).toBe(true);
    expect(spans.some((s) => /\/(health|ready)\b/.test(s.name) || /\/(health|ready)\b/.test(String(s.attributes['url.path'] ?? '')))).toBe(false);
  });

  it("puts a read's queries (no transaction) under the service's server span", async () => {
    const traceId = randomBytes(16).toString('hex');
    const res = await fetch(`${stack.rt.base}/api/v1/locations?limit=5`, { headers: { authorization: `Bearer ${stack.session}`, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` } });
    expect(res.status).toBe(200);
    const isQuery = (s: ExportedSpan) => s.attributes['db.system'] === 'postgresql' || s.attributes['db.system.name'] === 'postgresql';
    const server = await waitFor(10_000, async () => spans.find((s) => s.traceId === traceId && s.kind === SPAN_KIND.SERVER && s.attributes['bop.service'] === 'organization'));
    expect(server?.name).toBe('GET /locations');
    const queries = await waitFor(10_000, async () => {
      const q = spans.filter((s) => s.traceId === traceId && isQuery(s) && s.parentSpanId === server!.spanId);
      return q.length > 0 ? q : undefined;
    });
    expect(queries!.map((s) => s.name)).toEqual(expect.arrayContaining([expect.stringMatching(/^pg\.query:SELECT\b/)]));
    expect(queries!.some((s) => /^pg\.query:BEGIN\b/.test(s.name))).toBe(false);
  });
});

describe('the batch span processor settings', () => {
  it('export 100 spans a second unless OTEL_BSP_MAX_EXPORT_BATCH_SIZE and OTEL_BSP_SCHEDULE_DELAY say otherwise', () => {
    expect(batchSettings({})).toEqual({ maxExportBatchSize: 100, scheduledDelayMillis: 1000 });
    expect(batchSettings({ OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '512', OTEL_BSP_SCHEDULE_DELAY: '5000' })).toEqual({ maxExportBatchSize: 512, scheduledDelayMillis: 5000 });
    // a value that is not a positive number falls back rather than stalling the export
    expect(batchSettings({ OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '0', OTEL_BSP_SCHEDULE_DELAY: 'soon' })).toEqual({ maxExportBatchSize: 100, scheduledDelayMillis: 1000 });
  });
});
