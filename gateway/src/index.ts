import { Redis } from 'ioredis';
import type { AreaService } from '@bop/contracts';
import { randomBytes } from 'node:crypto';
import { createBus, createLogger, createOrm, InternalTokenSigner, listenHttp, loadConfig, migrate, urlHost, type Bus, type HttpListener, type Logger } from '@bop/shared';
import { gatewayConfigSchema, type GatewayConfig } from './config';
import { createApp } from './app';
import { IdempotencyRecord } from './entities';
import { migrations } from './migrations';
import { anonymousPrincipal, CachedToken, gatewayPrincipal } from './internal';
import { Upstreams } from './upstreams';
import { compileRouteTable } from './steps/route-match';
import { FeatureSwitches } from './steps/features';
import { Authenticator } from './steps/authenticate';
import { RateLimits } from './steps/rate-limit';
import { IdempotencyStore, parseByteSize } from './steps/idempotency';
import { Proxy } from './steps/proxy';
import { ApiDocs } from './openapi-docs';
import { DisplayGate } from './display';

export { gatewayConfigSchema, type GatewayConfig } from './config';
export { accessDenial } from './steps/authorize';
export { compileRouteTable, lookupRoute } from './steps/route-match';

export interface GatewayOptions {
  /** settings (see gatewayConfigSchema), over process.env; an empty string unsets a variable */
  env?: Record<string, string | undefined>;
  port?: number;
  host?: string;
  databaseUrl: string;
  /** PKCS#8 PEM (or base64 of it) of the Ed25519 key that signs internal tokens */
  internalPrivateKeyPem: string;
  /** where each service listens; rows of services not listed answer 404 (not in this deployment) */
  serviceUrls: Partial<Record<AreaService, string>>;
  logger?: Logger;
  /** the bus the services publish to (the runtime shares its own; else one is made from config) */
  bus?: Bus;
}

export interface RunningGateway {
  url: string;
  port: number;
  config: GatewayConfig;
  /** re-reads feature switches and every service's served endpoints now */
  refresh(): Promise<void>;
  close(): Promise<void>;
}

const SCHEMA = 'gateway';

export async function startGateway(opts: GatewayOptions): Promise<RunningGateway> {
  const env = { ...process.env, ...(opts.env ?? {}) };
  const config = loadConfig(gatewayConfigSchema, env);
  const log = opts.logger ?? createLogger('gateway', config.LOG_LEVEL);
  const signer = await InternalTokenSigner.fromPem(opts.internalPrivateKeyPem);
  const systemToken = new CachedToken(signer, gatewayPrincipal);

  const orm = await createOrm({ schema: SCHEMA, clientUrl: opts.databaseUrl, entities: [IdempotencyRecord], migrations, poolMax: config.DB_POOL_MAX, debug: config.DB_DEBUG });
  let redis: Redis | undefined;
  try {
    const ran = await migrate(orm, SCHEMA);
    if (ran.length > 0) log.info({ migrations: ran }, 'migrations applied');
    if (config.REDIS_URL) {
      redis = new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000, lazyConnect: true });
      redis.on('error', (err) => log.debug({ err: err.message }, 'redis error'));
      await redis.connect().catch((err) => log.warn({ err: (err as Error).message }, 'redis unreachable; rate limits held in memory until it is back'));
    }
  } catch (err) {
    await orm.close(true);
    redis?.disconnect();
    throw err;
  }

  const identityUrl = opts.serviceUrls.identity?.replace(/\/$/, '');
  const upstreams = new Upstreams(opts.serviceUrls, systemToken, log, config.SERVED_REFRESH_SECONDS);
  const features = new FeatureSwitches(identityUrl, systemToken, log, config.FEATURE_REFRESH_SECONDS);
  const authenticator = new Authenticator(identityUrl, systemToken, config.AUTH_CACHE_SECONDS, log);
  const limits = new RateLimits(
    { interactivePerMin: config.API_RATE_LIMIT_PER_MIN, ingestPerMin: config.API_INGEST_RATE_LIMIT_PER_MIN, redis },
    config.TRUST_PROXY,
    log,
  );
  const idempotency = new IdempotencyStore(orm, config.IDEMPOTENCY_TTL_HOURS * 3600, Math.max(120, (2 * config.UPSTREAM_TIMEOUT_MS) / 1000), log);
  const proxy = new Proxy({
    signer,
    anonymousToken: new CachedToken(signer, anonymousPrincipal),
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    maxSockets: config.UPSTREAM_MAX_SOCKETS,
    trustProxy: config.TRUST_PROXY,
    errorsBaseUrl: config.ERRORS_BASE_URL,
    log,
    onSuccess(req) {
      const route = req.gw.route!;
      // revocations, role changes and deactivations apply at once from this gateway
      if (route.changesIdentity) authenticator.clear();
      if (route.featureToggle && req.gw.params?.key) features.applyToggle(req.gw.params.key, route.featureToggle === 'enable');
    },
  });
  const display = new DisplayGate({
    communicationUrl: opts.serviceUrls.communication?.replace(/\/$/, ''),
    systemToken,
    features,
    trustProxy: config.TRUST_PROXY,
    headersTimeoutMs: config.UPSTREAM_TIMEOUT_MS,
    pairingsPerMin: config.DISPLAY_PAIRINGS_PER_MIN,
    callsPerMin: config.DISPLAY_CALLS_PER_MIN,
    redis,
    log,
  });
  const docs = new ApiDocs(upstreams, features, config.PUBLIC_BASE_URL, config.ERRORS_BASE_URL, config.TRUST_PROXY);

  await Promise.all([upstreams.refresh(), features.refresh()]);
  upstreams.start();
  features.start();
  idempotency.start();

  // revocations, deactivations, role changes and paused integrations made anywhere (another gateway,
  // the ops CLI, an internal command) reach this gateway's auth cache as identity's events
  const ownBus = opts.bus ? null : await createBus({ ...config, DATABASE_URL: config.DATABASE_URL ?? opts.databaseUrl }, log);
  const bus = opts.bus ?? ownBus!;
  const identityEvents = await bus.subscribe({
    group: `gateway.auth-cache.${randomBytes(6).toString('hex')}`,
    topics: ['identity'],
    startAt: 'latest',
    handler: async (batch) => {
      if (batch.some((m) => m.type.startsWith('identity.'))) authenticator.clear();
    },
    onError: (err) => log.warn({ err }, 'identity events: listener failed; retrying'),
  });

  const { handler } = createApp({
    config,
    log,
    orm,
    table: compileRouteTable(),
    upstreams,
    features,
    authenticator,
    limits,
    idempotency,
    bodyLimit: parseByteSize(config.REQUEST_BODY_LIMIT),
    proxy,
    docs,
    display,
  });
  const host = opts.host ?? config.HOST;
  const port = opts.port ?? config.PORT;
  let listener: HttpListener;
  try {
    listener = await listenHttp(handler, port, host, { errorsBaseUrl: config.ERRORS_BASE_URL });
  } catch (err) {
    upstreams.stop();
    features.stop();
    idempotency.stop();
    proxy.close();
    display.close();
    redis?.disconnect();
    await orm.close(true);
    throw err;
  }
  const actualPort = listener.port;
  log.info(
    { port: actualPort, services: [...upstreams.urls.keys()], served: upstreams.servedKeys().size, rateLimitStore: limits.store, featuresKnown: features.loaded },
    'gateway listening',
  );

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      upstreams.stop();
      features.stop();
      idempotency.stop();
      await identityEvents.stop();
      await ownBus?.close();
      display.endStreams();
      await listener.close(config.SHUTDOWN_GRACE_MS);
      proxy.close();
      display.close();
      if (redis) await redis.quit().catch(() => redis!.disconnect());
      await orm.close(true);
    })());

  return {
    url: `http://${urlHost(host)}:${actualPort}`,
    port: actualPort,
    config,
    refresh: async () => {
      await Promise.all([upstreams.refresh(), features.refresh()]);
    },
    close,
  };
}
