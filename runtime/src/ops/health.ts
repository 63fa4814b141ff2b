import type { Command } from 'commander';
import { loadRuntimeConfig } from '../config';
import { baseUrl, exits, migrateServices, withDatabase } from './context';
import { overviewProblems, readOverview, type Overview } from './overview';

interface Readiness {
  url: string;
  state: 'ready' | 'not ready' | 'not running';
  detail: unknown;
}

async function readiness(base: string): Promise<Readiness> {
  try {
    const res = await fetch(`${base}/api/ready`, { signal: AbortSignal.timeout(5000) });
    const text = await res.text();
    let detail: unknown = text;
    try {
      detail = JSON.parse(text);
    } catch {
      /* keep the text */
    }
    return { url: base, state: res.status === 200 ? 'ready' : 'not ready', detail };
  } catch (err) {
    return { url: base, state: 'not running', detail: (err as Error).message };
  }
}

const age = (s: number | null) => (s === null ? '' : `, oldest ${s}s`);

/** `status`: the API's readiness and, from the database, migrations, outbox backlogs, bus lag, dead letters, webhook and email queues. */
async function status(opts: { url?: string; json?: boolean }): Promise<number> {
  const api = await readiness(baseUrl(opts.url));
  let overview: Overview | null = null;
  let databaseError: string | null = null;
  try {
    overview = await withDatabase((url) => readOverview(url));
  } catch (err) {
    databaseError = (err as Error).message;
  }
  if (opts.json) {
    console.log(JSON.stringify({ api, database: databaseError === null ? 'reachable' : { error: databaseError }, ...overview }, null, 2));
  } else {
    console.log(`API ${api.url}: ${api.state}${api.state === 'not ready' ? ` ${JSON.stringify(api.detail)}` : api.state === 'not running' ? ' (npm start starts it)' : ''}`);
    if (databaseError !== null) console.log(`database: not reachable (${databaseError})`);
    if (overview) {
      console.log('services:');
      const served = api.state === 'not running' ? {} : ((api.detail as { services?: Record<string, { status?: string }> } | null)?.services ?? {});
      for (const s of overview.services) {
        const migrations = s.pendingMigrations.length === 0 ? 'migrations current' : `${s.pendingMigrations.length} migration(s) pending`;
        const ready = served[s.name]?.status ? `${served[s.name].status}; ` : '';
        console.log(`  ${s.name.padEnd(13)} ${ready}${migrations}; outbox ${s.outbox.unpublished} unpublished${age(s.outbox.oldestSeconds)}; dead letters ${s.deadLetters}`);
      }
      if (overview.bus.kind === 'kafka') console.log('bus: kafka (lag per group: see the Kafka consumer groups)');
      else {
        console.log(`bus: postgres, head ${overview.bus.head ?? '(no bus schema yet)'}`);
        for (const g of overview.bus.groups) console.log(`  ${g.group.padEnd(40)} at ${g.position}, ${g.behind} behind${age(g.oldestSeconds)}`);
      }
      const w = overview.webhooks;
      if (w) console.log(`webhooks: ${w.endpoints} endpoint(s), ${w.disabled.length} disabled; queue ${w.pending} pending${age(w.oldestPendingSeconds)}, ${w.failed} failed`);
      if (overview.email) console.log(`email: ${overview.email.pending} pending, ${overview.email.failed} failed`);
    }
  }
  return databaseError === null && api.state !== 'not ready' ? 0 : 1;
}

interface DoctorOptions {
  url?: string;
  json?: boolean;
  stallSeconds: string;
  maxLag: string;
}

/** `doctor`: every check, and exit 1 with the reasons when something is wrong. */
async function doctor(opts: DoctorOptions): Promise<number> {
  const checks: { check: string; ok: boolean; detail: string }[] = [];
  const info: string[] = [];
  const [major, minor] = process.versions.node.split('.').map(Number);
  const nodeOk = major > 20 || (major === 20 && minor >= 19);
  checks.push({ check: 'node', ok: nodeOk, detail: nodeOk ? `Node ${process.versions.node}` : `Node ${process.versions.node} is too old: 20.19 or newer is needed` });
  try {
    loadRuntimeConfig();
    checks.push({ check: 'config', ok: true, detail: 'configuration valid' });
  } catch (err) {
    checks.push({ check: 'config', ok: false, detail: (err as Error).message });
  }
  const limits = { stallSeconds: Number(opts.stallSeconds), maxLag: Number(opts.maxLag) };
  if (!(limits.stallSeconds > 0) || !(limits.maxLag >= 0)) {
    console.error('error: --stall-seconds is a positive number of seconds, --max-lag a number of messages');
    return 2;
  }
  try {
    await withDatabase(async (url) => {
      checks.push({ check: 'database', ok: true, detail: `database reachable (${url.replace(/:[^:@/]+@/, ':***@')})` });
      checks.push(...overviewProblems(await readOverview(url), limits));
    });
  } catch (err) {
    checks.push({ check: 'database', ok: false, detail: `database: ${(err as Error).message}` });
  }
  const api = await readiness(baseUrl(opts.url));
  if (api.state === 'not running') info.push(`API not running at ${api.url} (start it with npm start)`);
  else checks.push({ check: 'api', ok: api.state === 'ready', detail: api.state === 'ready' ? `API ready at ${api.url}` : `API at ${api.url} is not ready: ${JSON.stringify(api.detail)}` });
  const problems = checks.filter((c) => !c.ok);
  if (opts.json) console.log(JSON.stringify({ ok: problems.length === 0, problems: problems.map((p) => p.detail), checks, info }, null, 2));
  else {
    for (const c of checks) console.log(`  ${c.ok ? 'ok  ' : 'FAIL'}  ${c.detail}`);
    for (const i of info) console.log(`  info  ${i}`);
    console.log(problems.length === 0 ? '\nall good' : `\n${problems.length} problem(s) found`);
  }
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
  program
    .command('status')
    .description('API readiness; per service migrations, outbox backlog and dead letters; bus lag per consumer group; webhook and email queues')
    .option('--url <base>', 'the API base URL')
    .option('--json', 'as JSON')
    .action(exits(status));
  program
    .command('doctor')
    .description('checks Node, config, database, migrations, relay, bus lag, dead letters, webhook endpoints, API (exit 1 with the reasons)')
    .option('--url <base>', 'the API base URL')
    .option('--json', 'as JSON')
    .option('--stall-seconds <s>', 'an outbox event unpublished this long means the relay is stalled', '300')
    .option('--max-lag <n>', 'a consumer group this many messages behind is lagging', '10000')
    .action(exits(doctor));
  program.command('migrate').description("applies every service's pending migrations (services also do it on start)").action(exits(migrateAll));
}
