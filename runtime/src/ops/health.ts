import type { Command } from 'commander';
import { createOrm, pendingMigrations } from '@bop/shared';
import { serviceTable } from '@bop/contracts';
import { serviceDefinitions } from '../services';
import { loadRuntimeConfig } from '../config';
import { baseUrl, exits, migrateServices, withDatabase } from './context';

async function status(opts: { url?: string }): Promise<number> {
  const url = baseUrl(opts.url);
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

async function doctor(opts: { url?: string }): Promise<number> {
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
  const url = baseUrl(opts.url);
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

async function migrateAll(): Promise<number> {
  return withDatabase(async (url) => {
    await migrateServices(url, (name, ran) => console.log(`${name}: ${ran.length === 0 ? 'up to date' : `applied ${ran.join(', ')}`}`));
    return 0;
  });
}

/** `status`, `doctor`, `migrate`: is the platform running and sound. */
export function addHealthCommands(program: Command): void {
  program.command('status').description('readiness of the running API').option('--url <base>', 'the API base URL').action(exits(status));
  program
    .command('doctor')
    .description('checks Node, config, database, migrations, API (exit 1 when something is wrong)')
    .option('--url <base>', 'the API base URL')
    .action(exits(doctor));
  program.command('migrate').description("applies every service's pending migrations (services also do it on start)").action(exits(migrateAll));
}
