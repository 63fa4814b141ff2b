import fs from 'node:fs';
import path from 'node:path';
import { serviceTable } from '@bop/contracts';
import { baseConfigSchema, createBus, createLogger, generateInternalKeyPair, loadConfig, startService, type Logger, type RunningService } from '@bop/shared';
import { startGateway } from '@bop/gateway';
import { serviceDefinitions } from './services';
import { startEmbeddedPostgres, type EmbeddedDb } from './embedded-postgres';
import { loadRuntimeConfig } from './config';

export { serviceDefinitions } from './services';
export { startEmbeddedPostgres } from './embedded-postgres';
export { loadRuntimeConfig, runtimeConfigSchema } from './config';

/** An explicit SERVICE_PORT_<NAME> wins; else any free port (`auto`, bound as 0) or the service's fixed port. */
function servicePort(name: keyof typeof serviceTable, env: Record<string, string | undefined>, mode: 'fixed' | 'auto'): number {
  const explicit = env[`SERVICE_PORT_${name.toUpperCase()}`];
  if (explicit) return Number(explicit);
  return mode === 'auto' ? 0 : serviceTable[name].port;
}

export interface Runtime {
  /** the public base URL, e.g. http://127.0.0.1:8080 */
  url: string;
  databaseUrl: string;
  services: RunningService<any>[];
  close(): Promise<void>;
}

/**
 * Starts everything in one process: Postgres (embedded unless DATABASE_URL is set), every service on
 * its own port, and the gateway proxying to them over HTTP exactly as in the distributed mode.
 */
export async function startAll(envOverrides: Record<string, string | undefined> = {}, logger?: Logger): Promise<Runtime> {
  const env = { ...process.env, ...envOverrides };
  const config = loadRuntimeConfig(env);
  const log = logger ?? createLogger('runtime', config.LOG_LEVEL);
  let embedded: EmbeddedDb | null = null;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({ dataDir: config.DATA_DIR, port: config.EMBEDDED_PG_PORT, log, callerHandlesSignals: true });
    databaseUrl = embedded.url;
    fs.writeFileSync(path.join(path.resolve(config.DATA_DIR), 'runtime.json'), JSON.stringify({ pid: process.pid, databaseUrl, port: config.PORT }, null, 2));
  }
  const keys =
    config.INTERNAL_JWT_PRIVATE_KEY && config.INTERNAL_JWT_PUBLIC_KEY
      ? { privateKeyPem: config.INTERNAL_JWT_PRIVATE_KEY, publicKeyPem: config.INTERNAL_JWT_PUBLIC_KEY }
      : await generateInternalKeyPair();
  const services: RunningService<any>[] = [];
  // one bus for every service of the process (the Postgres adapter: one pool and one LISTEN)
  const bus = await createBus(loadConfig(baseConfigSchema, { ...env, DATABASE_URL: databaseUrl }), log);
  const stopAll = async () => {
    for (const s of services.reverse()) await s.close().catch((err) => log.error({ err, service: s.name }, 'close failed'));
    await bus.close().catch((err) => log.error({ err }, 'bus close failed'));
    if (embedded) await embedded.stop().catch((err) => log.error({ err }, 'embedded Postgres stop failed'));
  };
  try {
    // every service learns where the others' internal commands are: known ports up front, `auto`
    // ones (bound as 0, no probing race) as each service starts
    const serviceUrls: Record<string, string> = {};
    for (const def of serviceDefinitions) {
      const port = servicePort(def.name, env, config.SERVICE_PORTS);
      if (port !== 0) serviceUrls[def.name] = `http://127.0.0.1:${port}`;
    }
    // identity first: it bootstraps the owner the others' callers sign in as
    for (const def of serviceDefinitions) {
      const running = await startService(def, {
        env,
        databaseUrl,
        internalPublicKeyPem: keys.publicKeyPem,
        internalPrivateKeyPem: keys.privateKeyPem,
        bus,
        serviceUrls,
        // services stay on loopback in the embedded default; only the gateway follows HOST
        host: '127.0.0.1',
        port: servicePort(def.name, env, config.SERVICE_PORTS),
        logger: createLogger(def.name, config.LOG_LEVEL),
      });
      services.push(running);
      serviceUrls[def.name] = running.url;
    }
    const gateway = await startGateway({
      env,
      port: config.PORT,
      host: config.HOST,
      databaseUrl,
      internalPrivateKeyPem: keys.privateKeyPem,
      serviceUrls: Object.fromEntries(services.map((s) => [s.name, s.url])),
      bus,
      logger: createLogger('gateway', config.LOG_LEVEL),
    });
    return {
      url: gateway.url,
      databaseUrl,
      services,
      close: async () => {
        await gateway.close();
        await stopAll();
      },
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
