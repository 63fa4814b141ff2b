import type { ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { Express, Request, Response } from 'express';
import type { KitRequest } from '../http-server';
import { isRouteMatch, type RouteTable } from '@bop/contracts';
import type { BaseConfig } from '../config';
import type { Orm } from '../db';
import type { Bus } from '../bus/types';
import type { ConsumerRunner } from '../consumer-runner';
import { Unauthorized } from '../errors';
import { addScrapeCollector, collectMetricsText, enableMetrics, metrics, METRICS_CONTENT_TYPE, recordHttp } from './metrics';

/** True when the request may read metrics: no METRICS_TOKEN set, or `Authorization: Bearer <METRICS_TOKEN>`. */
export function metricsCallerAllowed(authorization: string | undefined, token: string | undefined): boolean {
  if (!token) return true;
  const offered = Buffer.from(/^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim() ?? '');
  const expected = Buffer.from(token);
  return offered.length === expected.length && timingSafeEqual(offered, expected);
}

/** Answers a scrape: the Prometheus text of this process (every thread of it), or 401 without the token. */
export async function serveMetrics(req: Request, res: Response, token: string | undefined): Promise<void> {
  if (!metricsCallerAllowed(req.headers.authorization, token)) throw new Unauthorized('Send the metrics token (METRICS_TOKEN) as a bearer token.');
  const text = await collectMetricsText();
  res.status(200).setHeader('Content-Type', METRICS_CONTENT_TYPE);
  res.setHeader('Cache-Control', 'no-store');
  res.end(text);
}

interface RoutedEntry {
  row: { path: string } | null;
  def: { key: string };
}

const OWN_PATHS = new Set(['/health', '/ready', '/metrics']);

/** The route template of a request (a catalogue path, an internal route's path), never the raw URL. */
function routeTemplate(table: RouteTable<RoutedEntry>, method: string, path: string): string {
  if (OWN_PATHS.has(path)) return path;
  const match = table.match(method, path);
  if (!isRouteMatch(match)) return 'unmatched';
  return match.value.row?.path ?? match.value.def.key.slice(match.value.def.key.indexOf(' ') + 1);
}

/**
 * With METRICS_ENABLED: counts every request of a service by route template, method and status class
 * (with its duration), and serves the process's metrics at `/metrics` (distributed mode: each service
 * is scraped on its own port).
 */
/**
 * Serves `/metrics` on the service's express app and answers the observer the service's request path
 * calls once per request (HTTP series by route template); null while metrics are off.
 */
export function installServiceMetrics(app: Express, opts: { service: string; config: BaseConfig; table: RouteTable<RoutedEntry> }): ((req: KitRequest, res: ServerResponse) => void) | null {
  if (!opts.config.METRICS_ENABLED) return null;
  enableMetrics();
  app.get('/metrics', (req: Request, res: Response) => serveMetrics(req, res, opts.config.METRICS_TOKEN));
  return (req, res) => {
    const started = performance.now();
    res.once('finish', () => {
      recordHttp(opts.service, routeTemplate(opts.table, req.method, req.path), req.method, res.statusCode, (performance.now() - started) / 1000);
    });
  };
}

interface PoolLike {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/** The knex (tarn) pool under an ORM, when there is one. */
function poolOf(orm: Orm): PoolLike | null {
  const pool = (orm.em.getConnection().getKnex() as unknown as { client?: { pool?: PoolLike } }).client?.pool;
  return pool && typeof pool.numUsed === 'function' ? pool : null;
}

/** Fills the database pool gauges of one ORM (no query). */
export function observePool(service: string, orm: Orm): void {
  const pool = poolOf(orm);
  if (!pool) return;
  metrics.dbPool.set({ service, state: 'in_use' }, pool.numUsed());
  metrics.dbPool.set({ service, state: 'idle' }, pool.numFree());
  metrics.dbPool.set({ service, state: 'waiting' }, pool.numPendingAcquires());
}

export interface WatchedService {
  service: string;
  schema: string;
  orm: Orm;
  bus: Bus;
  consumers: ConsumerRunner;
  config: BaseConfig;
}

/**
 * A service's scrape-time gauges: its outbox backlog and relay lag, its dead letters and its
 * consumer groups' bus lag (one query each), and its database pool. Answers their removal (on close).
 */
export function watchService(s: WatchedService): () => void {
  if (!s.config.METRICS_ENABLED) return () => undefined;
  const conn = () => s.orm.em.getConnection();
  return addScrapeCollector(async () => {
    observePool(s.service, s.orm);
    const groups = s.consumers.groups();
    const [outbox, dead, lag] = await Promise.all([
      conn().execute<Array<{ n: string; age: string | null }>>(
        `select count(*) as n, extract(epoch from now() - min("created_at")) as age from "${s.schema}"."outbox" where "published_at" is null`,
      ),
      groups.length > 0 ? conn().execute<Array<{ consumer: string; n: string }>>(`select "consumer", count(*) as n from "${s.schema}"."dead_letters" group by "consumer"`) : [],
      groups.length > 0 && s.bus.groupLag ? s.bus.groupLag(groups) : [],
    ]);
    metrics.outboxBacklog.set({ service: s.service }, Number(outbox[0]?.n ?? 0));
    metrics.relayLag.set({ service: s.service }, Math.max(0, Number(outbox[0]?.age ?? 0)));
    const parked = new Map(dead.map((r) => [r.consumer, Number(r.n)]));
    for (const group of new Set([...groups, ...parked.keys()])) metrics.deadLetters.set({ group }, parked.get(group) ?? 0);
    for (const { group, lag: behind } of lag) metrics.busLag.set({ group }, behind);
  });
}
