import fs from 'node:fs';
import path from 'node:path';
import {
  baseConfigSchema,
  createBus,
  createLogger,
  createOrm,
  loadConfig,
  migrate,
  ServiceClient,
  serviceRuntime,
  systemClock,
  type BaseConfig,
  type ServiceDefinition,
  type ServiceRuntime,
} from '@bop/shared';
import { serviceTable } from '@bop/contracts';
import { identityService } from '@svc/identity';
import { serviceDefinitions } from '../services';
import { loadRuntimeConfig } from '../config';
import { isNodeProcess, startEmbeddedPostgres, type EmbeddedDb } from '../embedded-postgres';

export const log = createLogger('ops', process.env.LOG_LEVEL ?? 'warn');

/** A command's action: its exit code becomes the process's (0 done, 1 something failed, 2 wrong usage). */
export const exits =
  <A extends unknown[]>(fn: (...args: A) => Promise<number>) =>
  async (...args: A): Promise<void> => {
    process.exitCode = await fn(...args);
  };

/** The database: DATABASE_URL, the running embedded one, or the embedded one started just for this command. */
export async function withDatabase<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const config = loadRuntimeConfig();
  if (config.DATABASE_URL) return fn(config.DATABASE_URL);
  const runtimeFile = path.join(path.resolve(config.DATA_DIR), 'runtime.json');
  if (fs.existsSync(runtimeFile)) {
    const state = JSON.parse(fs.readFileSync(runtimeFile, 'utf8')) as { pid: number; databaseUrl: string };
    // the runtime that wrote it still runs (a pid alone may since name any process, or a zombie)
    if (isNodeProcess(state.pid)) return fn(state.databaseUrl);
  }
  let db: EmbeddedDb | null = null;
  try {
    db = await startEmbeddedPostgres({ dataDir: config.DATA_DIR, port: config.EMBEDDED_PG_PORT, log });
    return await fn(db.url);
  } finally {
    await db?.stop();
  }
}

/** A service's runtime without its HTTP side: its ORM (migrated), config defaults and the bus. */
export async function withServiceRuntime<T>(def: ServiceDefinition<any>, url: string, fn: (runtime: ServiceRuntime<any>) => Promise<T>): Promise<T> {
  const schema = serviceTable[def.name].schema;
  const config = loadConfig(baseConfigSchema.extend(def.configSchema?.shape ?? {}), { ...process.env, DATABASE_URL: url }) as BaseConfig;
  const orm = await createOrm({ schema, clientUrl: url, entities: def.entities, migrations: def.migrations, poolMax: 2 });
  const bus = await createBus(config, log);
  try {
    await migrate(orm, schema);
    return await fn(serviceRuntime({ name: def.name, schema, config, orm, log, bus, clock: systemClock, services: new ServiceClient({}, null) }));
  } finally {
    await bus.close();
    await orm.close(true);
  }
}

/** Identity's runtime without its HTTP side: its admin entry points run in its units of work (`runtime.write`/`read`). */
export async function withIdentity<T>(fn: (runtime: ServiceRuntime<any>) => Promise<T>): Promise<T> {
  return withDatabase((url) => withServiceRuntime(identityService, url, fn));
}

/** The API's base URL: `--url`, BASE_URL, or the runtime's host and port. */
export function baseUrl(url: string | undefined): string {
  const config = loadRuntimeConfig();
  return url ?? process.env.BASE_URL ?? `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${config.PORT}`;
}

/** Applies every service's pending migrations; `report` hears what each one did. */
export async function migrateServices(url: string, report: (service: string, applied: string[]) => void): Promise<void> {
  for (const def of serviceDefinitions) {
    const schema = serviceTable[def.name].schema;
    const orm = await createOrm({ schema, clientUrl: url, entities: def.entities, migrations: def.migrations, poolMax: 1 });
    try {
      report(def.name, await migrate(orm, schema));
    } finally {
      await orm.close(true);
    }
  }
}
