import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { RouteTable } from '@bop/contracts';
import { BadRequest, kitRequest, serveTraced, setRequestUrl, logRequestOnFinish, malformedPercentEncoding, nameServerSpan, NotFound, pendingMigrations, renderError, withinMs, type Logger, type Orm } from '@bop/shared';
import type { CompiledRoute, GatewayRequest } from './context';
import type { GatewayConfig } from './config';
import type { ApiDocs } from './openapi-docs';
import type { Upstreams } from './upstreams';
import { startRequest } from './steps/request-id';
import { routeMatch } from './steps/route-match';
import { featureCheck, type FeatureSwitches } from './steps/features';
import { authenticate, type Authenticator } from './steps/authenticate';
import { authorize } from './steps/authorize';
import { rateLimit, type RateLimits } from './steps/rate-limit';
import { idempotencyKeyOf, idempotent, type IdempotencyStore } from './steps/idempotency';
import type { Proxy } from './steps/proxy';
import type { DisplayGate } from './display';
import { gatewayMetrics } from './metrics';

export interface GatewayParts {
  config: GatewayConfig;
  log: Logger;
  orm: Orm;
  table: RouteTable<CompiledRoute>;
  upstreams: Upstreams;
  features: FeatureSwitches;
  authenticator: Authenticator;
  limits: RateLimits;
  idempotency: IdempotencyStore;
  bodyLimit: number;
  proxy: Proxy;
  docs: ApiDocs;
  display: DisplayGate;
}

const API_PREFIX = '/api/v1';

/**
 * The gateway's HTTP handler. Requests under /api/v1 go straight to the request path (steps 1–8)
 * with express's request/response prototypes but without its router, which on this hot path cost as
 * much as everything else together; host-level endpoints, docs and unknown paths go through express.
 */
export function createApp(parts: GatewayParts): { app: Express; handler: (req: IncomingMessage, res: ServerResponse) => void } {
  const { config, log, upstreams, limits, proxy, docs } = parts;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', config.TRUST_PROXY);
  const accessLog = config.ACCESS_LOG && log.isLevelEnabled('info');
  const metrics = gatewayMetrics(config);

  const logLine = (req: GatewayRequest, res: ServerResponse) => logRequestOnFinish(log, req, res, req.gw.startedAt);

  app.use((req: Request, res: Response, next: NextFunction) => {
    startRequest(req as unknown as GatewayRequest, res);
    if (accessLog) logLine(req as unknown as GatewayRequest, res);
    const malformed = malformedPercentEncoding(req.url);
    if (malformed) throw new BadRequest(malformed);
    next();
  });

  app.get('/api/health', (_req, res) => {
    res.json({ status: 'ok' });
  });

  app.get('/api/ready', async (_req, res) => {
    let own: { status: 'ready' | 'not_ready'; pending?: string[]; error?: string };
    try {
      // 503 while the database does not answer (an outage), 200 again by itself once it is back
      const pending = await withinMs(3000, 'the database did not answer in time', async () => {
        await parts.orm.em.getConnection().execute('select 1');
        return pendingMigrations(parts.orm);
      });
      own = { status: pending.length === 0 ? 'ready' : 'not_ready', pending };
    } catch (err) {
      own = { status: 'not_ready', error: (err as Error).message };
    }
    const services = await upstreams.readiness();
    const ok = own.status === 'ready' && Object.values(services).every((s) => s.status === 'ready');
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'not_ready', gateway: own, services });
  });

  if (metrics) app.get('/api/metrics', metrics.serve);

  app.use('/docs', docs.router());
  // the team-display page and its calls (outside the catalogue: a screen holds a screen token, not a key)
  app.use('/display', parts.display.router());

  app.use((_req: Request, _res: Response) => {
    throw new NotFound('endpoint');
  });
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    renderError(err, req, res, config.ERRORS_BASE_URL, log);
  });

  const steps = {
    route: routeMatch(parts.table),
    feature: featureCheck(parts.features),
    authenticate: authenticate(parts.authenticator),
    authorize: authorize(),
    rateLimit: rateLimit(limits),
  };
  const idemDeps = { store: parts.idempotency, bodyLimit: parts.bodyLimit, trustProxy: config.TRUST_PROXY, log };

  const api = async (req: GatewayRequest, res: ServerResponse): Promise<void> => {
    try {
      // a path or query that does not decode is malformed, not an unknown endpoint
      const malformed = malformedPercentEncoding(req.url);
      if (malformed) throw new BadRequest(malformed);
      steps.route(req);
      const route = req.gw.route!;
      nameServerSpan('gateway', req.method, `${API_PREFIX}${route.row.path}`, req);
      steps.feature(req);
      const target = route.row.service === 'gateway' ? null : await upstreams.requireServed(route);
      await steps.authenticate(req);
      steps.authorize(req);
      await steps.rateLimit(req, res);
      if (target === null) {
        docs.openapi(req, res); // the one gateway row under /api/v1: GET /openapi.json
        return;
      }
      const key = idempotencyKeyOf(req);
      if (key !== null) await idempotent(idemDeps, key, req, res, () => proxy.forward(req, res, target));
      else await proxy.forward(req, res, target);
    } catch (err) {
      if (req.gw.onNoAnswer) {
        const release = req.gw.onNoAnswer;
        req.gw.onAnswer = req.gw.onNoAnswer = undefined;
        await release();
      }
      let failure = err;
      if (!req.gw.limited) {
        // spec: RateLimit-* on every response, errors included; the caller's errors count too
        try {
          await limits.consume(req, res);
        } catch (limited) {
          failure = limited;
        }
      }
      renderError(failure, req, res, config.ERRORS_BASE_URL, log);
    }
  };

  const handler = (rawReq: IncomingMessage, rawRes: ServerResponse): void => {
    const url = rawReq.url ?? '/';
    const underApi = url.startsWith(API_PREFIX) && (url.length === API_PREFIX.length || url[API_PREFIX.length] === '/' || url[API_PREFIX.length] === '?');
    if (!underApi) {
      app(rawReq, rawRes);
      return;
    }
    const req = kitRequest<GatewayRequest>(rawReq);
    const res = rawRes;
    setRequestUrl(req, url.slice(API_PREFIX.length) || '/');
    startRequest(req, res);
    if (accessLog) logLine(req, res);
    metrics?.observe(req, res);
    serveTraced(req, res, () => void api(req, res));
  };

  return { app, handler };
}
