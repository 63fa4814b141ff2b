/**
 * `GET /api/metrics` (issue 15, Metrics): the all-in-one runtime with METRICS_ENABLED and a
 * METRICS_TOKEN is scraped as Prometheus would, parsed with a Prometheus text parser, and the series
 * move after a sales batch, a failed webhook delivery (a real local receiver answering 500) and a
 * dead letter (a poison event on the real Postgres bus, as test/poison.test.ts makes one).
 */
import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { createBus, createLogger, loadConfig, baseConfigSchema, newId, type Bus } from '@bop/shared';
import { webhooksService } from '@svc/webhooks';
import { eventually, http, startTestRuntime, startTestService, type TestRuntime, type TestService } from '@bop/test-support';
import { histogramCount, labelSets, parseMetrics, total, type Families } from './prometheus-text';

const TOKEN = 'scrape-token-1234';
let t: TestRuntime;
let bus: Bus;
let receiver: Server;
let receiverHits = 0;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      receiverHits += 1;
      res.writeHead(500).end('down');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  t = await startTestRuntime({ METRICS_ENABLED: 'true', METRICS_TOKEN: TOKEN, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', CONSUMER_MAX_ATTEMPTS: '1' });
  bus = await createBus(loadConfig(baseConfigSchema, { DATABASE_URL: t.db.url }), createLogger('metrics-test', 'silent'));
}, 120_000);
afterAll(async () => {
  await bus?.close();
  await t?.close();
  await new Promise((r) => receiver?.close(r));
});

async function scrape(): Promise<{ text: string; families: Families }> {
  const r = await fetch(`${t.rt.url}/api/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await r.text();
  return { text, families: parseMetrics(text) };
}

const api = (method: string, path: string, body?: unknown, headers = t.owner) => http(t.rt.url, method, `/api/v1${path}`, { body, headers });
const BATCH = 'POST /sales/transactions:batch';

describe('GET /api/metrics', () => {
  it('asks for the metrics token when one is set', async () => {
    expect((await fetch(`${t.rt.url}/api/metrics`)).status).toBe(401);
    const wrong = await fetch(`${t.rt.url}/api/metrics`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { code: string }).code).toBe('unauthorized');
  });

  it('serves the runtime in Prometheus text: process memory, event-loop lag, every service’s pool and outbox', async () => {
    const { families } = await scrape();
    expect(families.get('process_resident_memory_bytes')?.type).toBe('GAUGE');
    expect(families.get('nodejs_eventloop_lag_seconds')?.type).toBe('GAUGE');
    const pooled = new Set(labelSets(families, 'bop_db_pool_connections').map((l) => l.service));
    for (const s of ['identity', 'organization', 'webhooks', 'sales', 'inventory', 'cash']) expect(pooled).toContain(s);
    const outboxes = new Set(labelSets(families, 'bop_outbox_backlog').map((l) => l.service));
    expect(outboxes).toContain('sales');
    expect(labelSets(families, 'bop_relay_lag_seconds').length).toBeGreaterThan(0);
    expect(labelSets(families, 'bop_bus_lag_messages').map((l) => l.group)).toContain('inventory.sales-depletion');
  });

  it('counts a sales batch: records by result, requests by route template at the gateway and at sales', async () => {
    const before = await scrape();
    const externalId = `MET-${Date.now().toString(36)}`;
    expect((await api('PUT', `/locations/external/${externalId}`, { name: 'Metrics', timezone: 'America/New_York' })).status).toBe(201);
    const reg = await api('POST', '/integrations', { manifest: { name: 'POS', version: '1.0.0', description: 'metrics test', scopes: ['sales:write'], webhooks: [] } });
    expect(reg.status).toBe(201);
    const pos = { authorization: `Bearer ${reg.body.apiKey}` };
    const occurredAt = new Date(Date.now() - 60_000).toISOString();
    const sale = (id: string) => ({
      externalId: id,
      locationExternalId: externalId,
      occurredAt,
      type: 'sale',
      lines: [{ itemSku: 'BURGER', name: 'Burger', quantity: '1', unitPrice: '8.00', tax: '0.64' }],
      tenders: [{ type: 'card', amount: '8.64' }],
      subtotal: '8.00',
      tax: '0.64',
      total: '8.64',
      currency: 'USD',
    });
    // sales learns of the location from organization's events: until then the record is rejected
    const id = `${externalId}-1`;
    await eventually(async () => {
      const r = await api('POST', '/sales/transactions:batch', { source: 'pos-metrics', transactions: [sale(id)] }, pos);
      expect(r.status).toBe(202);
      return r.body.results[0].status === 'created' || undefined;
    }, 20_000);
    const r = await api('POST', '/sales/transactions:batch', { source: 'pos-metrics', transactions: [sale(id), sale(id), { externalId: 'broken' }] }, pos);
    expect(r.body).toMatchObject({ unchanged: 1, duplicate: 1, rejected: 1 });

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) => total(after.families, name, labels) - total(before.families, name, labels);
    expect(moved('bop_ingest_records_total', { endpoint: BATCH, result: 'created' })).toBe(1);
    expect(moved('bop_ingest_records_total', { endpoint: BATCH, result: 'unchanged' })).toBe(1);
    expect(moved('bop_ingest_records_total', { endpoint: BATCH, result: 'duplicate' })).toBe(1);
    expect(moved('bop_ingest_records_total', { endpoint: BATCH, result: 'rejected' })).toBeGreaterThanOrEqual(1);
    const atGateway = { service: 'gateway', route: '/sales/transactions:batch', method: 'POST', status_class: '2xx' };
    expect(moved('bop_http_requests_total', atGateway)).toBeGreaterThanOrEqual(2);
    expect(moved('bop_http_requests_total', { ...atGateway, service: 'sales' })).toBeGreaterThanOrEqual(2);
    expect(histogramCount(after.text, after.families, 'bop_http_request_duration_seconds', atGateway)).toBeGreaterThanOrEqual(2);
    // the raw URL never becomes a label: the location's externalId stays out
    expect(labelSets(after.families, 'bop_http_requests_total').map((l) => l.route)).toContain('/locations/external/{externalId}');
    expect(after.text).not.toContain(`/locations/external/${externalId}`);
    // the relay moved sales' events to the bus
    await eventually(async () => total((await scrape()).families, 'bop_relay_published_total', { service: 'sales' }) > 0 || undefined);
  });

  it('counts a failed webhook delivery and shows it pending in the queue', async () => {
    const before = await scrape();
    const port = (receiver.address() as { port: number }).port;
    const endpoint = await api('POST', '/webhook-endpoints', { url: `http://127.0.0.1:${port}/hook`, events: ['location.updated'], description: 'answers 500' });
    expect(endpoint.status).toBe(201);
    const loc = await api('POST', '/locations', { name: 'Hooked', timezone: 'Europe/Oslo' });
    expect((await api('PATCH', `/locations/${loc.body.id}`, { name: 'Hooked again' })).status).toBe(200);

    const after = await eventually(async () => {
      const s = await scrape();
      // the queue gauges are read by a query at scrape time, which keeps its last values when it is slow: wait for both
      const retried = total(s.families, 'bop_webhook_deliveries_total', { outcome: 'retrying' }) > total(before.families, 'bop_webhook_deliveries_total', { outcome: 'retrying' });
      return retried && total(s.families, 'bop_webhook_queue_depth') >= 1 ? s : undefined;
    }, 20_000);
    expect(receiverHits).toBeGreaterThanOrEqual(1);
    expect(total(after.families, 'bop_webhook_queue_depth')).toBeGreaterThanOrEqual(1);
    expect(total(after.families, 'bop_webhook_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(after.families.get('bop_webhook_oldest_pending_age_seconds')?.type).toBe('GAUGE');
  });

  it('counts a dead letter: parked and waiting, by consumer group', async () => {
    const group = 'webhooks.fan-out';
    const before = await scrape();
    const id = newId('event');
    const poison = { id, type: 'identity.feature.enabled', createdAt: new Date().toISOString(), apiVersion: 'v1', actor: { type: 'system', id: 'system' }, locationId: null, data: { object: null } };
    await bus.publish([{ topic: 'identity', key: 'poison-metrics', eventId: id, type: poison.type, payload: poison }]);
    const after = await eventually(async () => {
      const s = await scrape();
      return total(s.families, 'bop_dead_letters', { group }) > total(before.families, 'bop_dead_letters', { group }) ? s : undefined;
    }, 20_000);
    expect(total(after.families, 'bop_dead_letters_parked_total', { group }) - total(before.families, 'bop_dead_letters_parked_total', { group })).toBe(1);
    expect(total(after.families, 'bop_dead_letters', { group: 'inventory.sales-depletion' })).toBe(0);
  });
});

describe('deploy/grafana/dashboards/bop-platform.json', () => {
  it('charts only series the runtime serves', async () => {
    const dashboard = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'deploy', 'grafana', 'dashboards', 'bop-platform.json'), 'utf8'));
    const exprs: string[] = dashboard.panels.flatMap((p: { targets: Array<{ expr: string }> }) => p.targets.map((x) => x.expr));
    const named = new Set(exprs.flatMap((e) => [...e.matchAll(/\b((?:bop|nodejs|process)_[a-z0-9_]+)/g)].map((m) => m[1].replace(/_bucket$/, ''))));
    const { families } = await scrape();
    expect([...named].filter((n) => !families.has(n))).toEqual([]);
    expect(named.size).toBeGreaterThan(10);
  });
});

describe('with METRICS_ENABLED off (the default)', () => {
  let off: TestRuntime;
  beforeAll(async () => {
    off = await startTestRuntime();
  }, 120_000);
  afterAll(async () => {
    await off?.close();
  });

  it('/api/metrics is not found', async () => {
    const r = await http(off.rt.url, 'GET', '/api/metrics');
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('not_found');
  });
});

describe('a service on its own (distributed mode)', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(webhooksService, { METRICS_ENABLED: 'true' });
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
  });

  it('serves its own /metrics without an internal token', async () => {
    await svc.call('GET', '/webhook-endpoints');
    const r = await fetch(`${svc.svc.url}/metrics`);
    expect(r.status).toBe(200);
    const families = parseMetrics(await r.text());
    expect(total(families, 'bop_http_requests_total', { service: 'webhooks', route: '/webhook-endpoints', method: 'GET' })).toBeGreaterThanOrEqual(1);
    expect(total(families, 'bop_outbox_backlog', { service: 'webhooks' })).toBe(0);
    expect(families.has('bop_webhook_queue_depth')).toBe(true);
  });
});
