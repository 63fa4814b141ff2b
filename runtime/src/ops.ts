#!/usr/bin/env node
/**
 * Operations CLI: `npm run ops -- <command>` or `bop-ops <command>`.
 *   version | status | doctor | migrate | dead-letters list|retry | integrations list |
 *   webhooks list|enable <id>|retry-failed <id> | features list|enable|disable <key> |
 *   users create-admin --email <e> [--password <p>] [--name <n>] | keys create --email <user> --name <n> [--expires <iso>]
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  baseConfigSchema,
  ConsumerRunner,
  createBus,
  createLogger,
  createOrm,
  listDeadLetters,
  loadConfig,
  migrate,
  pendingMigrations,
  ServiceClient,
  systemClock,
  type BaseConfig,
  type Orm,
  type ServiceDefinition,
  type ServiceRuntime,
} from '@bop/shared';
import { serviceTable } from '@bop/contracts';
import { identityAdmin, identityService } from '@svc/identity';
import { integrationsAdmin, integrationsService } from '@svc/integrations';
import { webhooksAdmin, webhooksService } from '@svc/webhooks';
import { serviceDefinitions } from './services';
import { loadRuntimeConfig } from './config';
import { isNodeProcess, startEmbeddedPostgres, type EmbeddedDb } from './embedded-postgres';

const log = createLogger('ops', process.env.LOG_LEVEL ?? 'warn');

interface Args {
  positional: string[];
  flags: Record<string, string>;
}

function parseArgs(argv: string[]): Args {
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const [k, v] = a.slice(2).split('=', 2);
      if (v !== undefined) flags[k] = v;
      else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) flags[k] = argv[++i];
      else flags[k] = 'true';
    } else positional.push(a);
  }
  return { positional, flags };
}

function packageVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** The database: DATABASE_URL, the running embedded one, or the embedded one started just for this command. */
async function withDatabase<T>(fn: (url: string) => Promise<T>): Promise<T> {
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
async function withServiceRuntime<T>(def: ServiceDefinition<any>, url: string, fn: (runtime: ServiceRuntime<any>) => Promise<T>): Promise<T> {
  const schema = serviceTable[def.name].schema;
  const config = loadConfig(baseConfigSchema.extend(def.configSchema?.shape ?? {}), { ...process.env, DATABASE_URL: url }) as BaseConfig;
  const orm = await createOrm({ schema, clientUrl: url, entities: def.entities, migrations: def.migrations, poolMax: 2 });
  const bus = await createBus(config, log);
  try {
    await migrate(orm, schema);
    return await fn({ name: def.name, schema, config, orm, log, bus, clock: systemClock, services: new ServiceClient({}, null) });
  } finally {
    await bus.close();
    await orm.close(true);
  }
}

async function withIdentity<T>(fn: (orm: Orm) => Promise<T>): Promise<T> {
  return withDatabase(async (url) => {
    const orm = await createOrm({ schema: 'identity', clientUrl: url, entities: identityService.entities, migrations: identityService.migrations, poolMax: 2 });
    try {
      await migrate(orm, 'identity');
      return await fn(orm);
    } finally {
      await orm.close(true);
    }
  });
}

function baseUrl(flags: Record<string, string>): string {
  const config = loadRuntimeConfig();
  return flags.url ?? process.env.BASE_URL ?? `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${config.PORT}`;
}

async function status(flags: Record<string, string>): Promise<number> {
  const url = baseUrl(flags);
  try {
    const res = await fetch(`${url}/api/ready`, { signal: AbortSignal.timeout(5000) });
    const body = (await res.json()) as unknown;
    console.log(`${url}: ${res.status === 200 ? 'ready' : 'NOT READY'}`);
    console.log(JSON.stringify(body, null, 2));
    return res.status === 200 ? 0 : 1;
  } catch (err) {
    console.log(`${url}: not reachable (${(err as Error).message}); is it started (npm start)?`);
    return 1;
  }
}

async function doctor(flags: Record<string, string>): Promise<number> {
  const problems: string[] = [];
  const ok = (m: string) => console.log(`  ok    ${m}`);
  const bad = (m: string) => {
    problems.push(m);
    console.log(`  FAIL  ${m}`);
  };
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major > 20 || (major === 20 && minor >= 19)) ok(`Node ${process.versions.node}`);
  else bad(`Node ${process.versions.node} is too old: 20.19 or newer is needed`);
  try {
    loadRuntimeConfig();
    ok('configuration valid');
  } catch (err) {
    bad((err as Error).message);
  }
  try {
    await withDatabase(async (url) => {
      ok(`database reachable (${url.replace(/:[^:@/]+@/, ':***@')})`);
      for (const def of serviceDefinitions) {
        const orm = await createOrm({ schema: serviceTable[def.name].schema, clientUrl: url, entities: def.entities, migrations: def.migrations, poolMax: 1 });
        try {
          const pending = await pendingMigrations(orm);
          if (pending.length === 0) ok(`${def.name}: migrations current`);
          else bad(`${def.name}: ${pending.length} migration(s) pending (${pending.join(', ')}); start the service to apply them`);
        } finally {
          await orm.close(true);
        }
      }
    });
  } catch (err) {
    bad(`database: ${(err as Error).message}`);
  }
  const url = baseUrl(flags);
  try {
    const res = await fetch(`${url}/api/ready`, { signal: AbortSignal.timeout(5000) });
    if (res.status === 200) ok(`API ready at ${url}`);
    else bad(`API at ${url} answers ${res.status} on /api/ready: ${await res.text()}`);
  } catch {
    console.log(`  info  API not running at ${url} (start it with npm start)`);
  }
  console.log(problems.length === 0 ? '\nall good' : `\n${problems.length} problem(s) found`);
  return problems.length === 0 ? 0 : 1;
}

async function main(argv: string[]): Promise<number> {
  const { positional, flags } = parseArgs(argv);
  const [cmd, sub, arg] = positional;
  switch (cmd) {
    case 'version':
      console.log(`bop ${packageVersion()} (node ${process.versions.node})`);
      return 0;
    case 'status':
      return status(flags);
    case 'doctor':
      return doctor(flags);
    case 'migrate':
      return withDatabase(async (url) => {
        for (const def of serviceDefinitions) {
          const schema = serviceTable[def.name].schema;
          const orm = await createOrm({ schema, clientUrl: url, entities: def.entities, migrations: def.migrations, poolMax: 1 });
          try {
            const ran = await migrate(orm, schema);
            console.log(`${def.name}: ${ran.length === 0 ? 'up to date' : `applied ${ran.join(', ')}`}`);
          } finally {
            await orm.close(true);
          }
        }
        return 0;
      });
    case 'dead-letters':
      return withDatabase(async (url) => {
        if (sub !== 'list' && sub !== 'retry') {
          console.error('usage: dead-letters list | dead-letters retry [--service <name>] [--id <n>]');
          return 2;
        }
        let total = 0;
        let failing = 0;
        for (const def of serviceDefinitions) {
          if (flags.service && flags.service !== def.name) continue;
          await withServiceRuntime(def, url, async (runtime) => {
            if (sub === 'list') {
              for (const d of await listDeadLetters(runtime.orm, runtime.schema)) {
                total += 1;
                const payload = d.payload === '' ? '(not kept: see the log line of its parking)' : d.payload.length > 500 ? `${d.payload.slice(0, 500)}… (${d.payload.length} characters)` : d.payload;
                console.log(`${def.name}  #${d.id}  ${d.consumer}  ${d.type}  ${d.eventId}  ${d.topic}@${d.position}  attempts ${d.attempts}  ${d.createdAt}\n    ${d.error}\n    payload ${payload}`);
              }
              return;
            }
            const runner = new ConsumerRunner(def.consumers?.(runtime) ?? [], { service: def.name, schema: runtime.schema, orm: runtime.orm, bus: runtime.bus, log });
            const r = await runner.retryDeadLetters(flags.id);
            total += r.retried;
            failing += r.stillFailing;
          });
        }
        console.log(sub === 'list' ? `${total} dead letter(s)` : `retried ${total}, still failing ${failing}`);
        return failing > 0 ? 1 : 0;
      });
    case 'integrations':
      if (sub !== 'list' && sub !== undefined) {
        console.error('usage: integrations list');
        return 2;
      }
      return withDatabase((url) =>
        withServiceRuntime(integrationsService, url, async (runtime) => {
          const list = await integrationsAdmin.listIntegrations(runtime.orm.em);
          for (const i of list) console.log(`${i.id}  ${i.status.padEnd(6)}  health ${String(i.health).padEnd(7)}  ${i.name} ${i.version}`);
          console.log(`${list.length} integration(s)`);
          return 0;
        }),
      );
    case 'webhooks':
      return withDatabase((url) =>
        withServiceRuntime(webhooksService, url, async (runtime) => {
          const em = runtime.orm.em;
          if (sub === 'list' || sub === undefined) {
            const list = await webhooksAdmin.listEndpoints(em);
            for (const e of list) {
              console.log(`${e.id}  ${e.status.padEnd(8)}  pending ${e.pendingDeliveries}  failed ${e.failedDeliveries}  ${e.url}${e.integrationId ? `  (integration ${e.integrationId})` : ''}`);
            }
            console.log(`${list.length} endpoint(s)`);
            return 0;
          }
          if (sub === 'enable' && arg) {
            await webhooksAdmin.enableEndpoint(em, arg);
            console.log(`${arg} enabled; its queued deliveries are sent in order`);
            return 0;
          }
          if (sub === 'retry-failed' && arg) {
            console.log(`${await webhooksAdmin.retryFailed(em, arg)} failed deliveries of ${arg} queued again`);
            return 0;
          }
          console.error('usage: webhooks list | webhooks enable <endpoint id> | webhooks retry-failed <endpoint id>');
          return 2;
        }),
      );
    case 'features':
      return withIdentity(async (orm) => {
        const em = orm.em.fork();
        if (sub === 'list' || sub === undefined) {
          for (const f of await identityAdmin.listFeatures(em)) {
            console.log(`${f.effective ? 'on ' : 'off'}  ${f.key}${f.enabled !== f.effective ? '  (switched on, but a parent is off)' : ''}`);
          }
          return 0;
        }
        if ((sub === 'enable' || sub === 'disable') && arg) {
          await identityAdmin.setFeature(em, arg, sub === 'enable');
          console.log(`${arg} ${sub}d`);
          return 0;
        }
        console.error('usage: features list | features enable <key> | features disable <key>');
        return 2;
      });
    case 'users':
      if (sub !== 'create-admin' || !flags.email) {
        console.error('usage: users create-admin --email <email> [--password <password>] [--name <name>]');
        return 2;
      }
      return withIdentity(async (orm) => {
        const password = flags.password ?? randomBytes(18).toString('base64url');
        const user = await identityAdmin.createAdmin(orm.em.fork(), { email: flags.email, password, name: flags.name });
        console.log(`created owner ${user.email} (${user.id})`);
        if (!flags.password) console.log(`password: ${password}`);
        return 0;
      });
    case 'keys':
      if (sub !== 'create' || !flags.email || !flags.name) {
        console.error('usage: keys create --email <user email> --name <key name> [--expires <ISO time>]');
        return 2;
      }
      return withIdentity(async (orm) => {
        const created = await identityAdmin.createPersonalKey(orm.em.fork(), { email: flags.email, name: flags.name, expiresAt: flags.expires });
        console.log(created.key);
        return 0;
      });
    default:
      console.log(`usage: ops <command>
  version                                   version of the platform
  status [--url <base>]                     readiness of the running API
  doctor [--url <base>]                     checks Node, config, database, migrations, API (exit 1 when something is wrong)
  migrate                                   applies every service's pending migrations (services also do it on start)
  dead-letters list|retry [--service <s>] [--id <n>]   events a consumer could not handle (exit 1 while some still fail)
  integrations list                         integrations with status and health
  webhooks list | enable <id> | retry-failed <id>   webhook endpoints and their queues
  features list|enable|disable <key>        feature switches
  users create-admin --email <e> [--password <p>] [--name <n>]
  keys create --email <user> --name <n> [--expires <ISO time>]   prints a personal key (pk_live_...)`);
      return cmd === undefined || cmd === 'help' || cmd === '--help' ? 0 : 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(`error: ${(err as Error).message}`);
    process.exit(1);
  },
);
