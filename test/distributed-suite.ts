/**
 * The distributed mode as separate processes, without Docker: the gateway and each service in a Node
 * process of its own, started from their dist entries as the image's command runs them, with the
 * settings docker-compose.yml gives them — hosts and ports rewritten to this machine, the run's
 * Postgres (a fresh database; each service on its own schema) through DATABASE_URL, and either bus:
 * the Postgres bus (distributed.test.ts) or Kafka with the schema registry as compose has it, the
 * test run's broker (distributed.kafka.test.ts). Then one flow through the gateway (sale-flow.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { generateInternalKeyPair } from '@bop/shared';
import { eventually, freshDatabase, Receiver, type TestDatabase } from '@bop/test-support';
import { saleFlow, type SaleFlowResult } from './sale-flow';
import { ROOT, existingServices, interpolate, readCompose, type AppName, type ComposeApp } from './deploy-files';


const ADMIN = { email: 'admin@example.com', password: 'distributed-owner-1234' };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface DistributedOptions {
  bus: 'postgres' | 'kafka';
  /** services started twice (two processes in the same consumer groups) */
  replicas?: AppName[];
  /** more checks once the flow went through (the Kafka run reads the topics as another team would) */
  afterFlow?: (flow: SaleFlowResult, env: { topicPrefix: string }) => Promise<void>;
}

/** what this test replaces in the compose settings, and why (everything else is taken as written) */
const DROPPED = new Set([
  'KAFKA_BROKERS', // the test run's broker (kafka), or the Postgres bus instead
  'SCHEMA_REGISTRY_URL',
  'REDIS_URL', // the gateway's rate limits in memory
  'OTEL_EXPORTER_OTLP_ENDPOINT', // no collector here
]);

/**
 * One process's environment from its compose settings: `${VAR}` from `vars`, compose hosts → 127.0.0.1
 * with each app's port → the local port chosen for it, DATABASE_URL → the test's database, BUS as asked
 * (kafka: the test run's broker and registry, and a topic prefix of this run's own).
 */
function localEnv(
  app: ComposeApp,
  compose: Map<AppName, ComposeApp>,
  localPorts: Map<AppName, number>,
  databaseUrl: string,
  vars: Record<string, string>,
  bus: Record<string, string>,
): Record<string, string> {
  const byHost = new Map([...compose.values()].map((a) => [`${a.service}:${a.env.PORT}`, localPorts.get(a.name)!]));
  const env: Record<string, string> = {};
  for (const [key, raw] of Object.entries(app.env)) {
    if (DROPPED.has(key)) continue;
    let value = interpolate(raw, vars);
    if (key === 'DATABASE_URL') value = databaseUrl;
    else if (key === 'BUS') value = bus.BUS;
    else if (key === 'HOST') value = '127.0.0.1';
    else if (key === 'PORT') value = String(localPorts.get(app.name));
    else if (key.startsWith('SERVICE_URL_')) {
      const u = new URL(value);
      const port = byHost.get(`${u.hostname}:${u.port}`);
      if (port === undefined) throw new Error(`${app.service}: ${key}=${value} names no app of docker-compose.yml`);
      value = `http://127.0.0.1:${port}`;
    }
    if (value !== '') env[key] = value;
  }
  if (app.env.BUS !== undefined) Object.assign(env, bus);
  return env;
}

interface Proc {
  name: AppName;
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

function startProcess(name: AppName, entry: string, env: Record<string, string>): Proc {
  const child = spawn(process.execPath, [entry], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  // TEST_PROC_LOG_DIR keeps each process's whole output (debugging a failed run)
  const file = process.env.TEST_PROC_LOG_DIR ? path.join(process.env.TEST_PROC_LOG_DIR, `${name}.log`) : null;
  const keep = (chunk: Buffer) => {
    if (file) fs.appendFileSync(file, chunk);
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { name, child, output, exited };
}

async function untilReady(proc: Proc, url: string, ms = 120_000): Promise<void> {
  let exitCode: number | null | undefined;
  void proc.exited.then((code) => (exitCode = code));
  await eventually(
    async () => {
      if (exitCode !== undefined) throw new Error(`${proc.name} exited (${exitCode}) before it was ready:\n${proc.output.join('').slice(-3000)}`);
      try {
        return (await fetch(url, { signal: AbortSignal.timeout(2000) })).status === 200;
      } catch {
        return false;
      }
    },
    ms,
    200,
  ).catch(async (err: Error) => {
    const said = await fetch(url, { signal: AbortSignal.timeout(2000) })
      .then((r) => r.text())
      .catch((e: Error) => e.message);
    throw new Error(`${err.message} (${proc.name} at ${url}: ${said})\n${proc.output.join('').slice(-3000)}`);
  });
}

export function distributedSuite(options: DistributedOptions): void {
  jest.setTimeout(240_000);
  const topicPrefix = `dist${randomBytes(3).toString('hex')}-`;
  const busEnv: Record<string, string> =
    options.bus === 'kafka'
      ? { BUS: 'kafka', KAFKA_BROKERS: requiredEnv('KAFKA_BROKERS'), SCHEMA_REGISTRY_URL: requiredEnv('SCHEMA_REGISTRY_URL'), KAFKA_TOPIC_PREFIX: topicPrefix }
      : { BUS: 'postgres' };
  const compose = readCompose();
  const services = existingServices();
  const procs: Proc[] = [];
  const replicas: Proc[] = [];
  let db: TestDatabase;
  let base: string;
  let receiver: Receiver;

  beforeAll(async () => {
    for (const name of [...services, 'gateway' as const]) {
      const entry = path.join(ROOT, compose.apps.get(name)!.entry);
      if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: build first (npm run build)`);
    }
    receiver = await Receiver.start();

    db = await freshDatabase();
    const keys = await generateInternalKeyPair();
    const vars = {
      INTERNAL_JWT_PUBLIC_KEY: Buffer.from(keys.publicKeyPem).toString('base64'),
      INTERNAL_JWT_PRIVATE_KEY: Buffer.from(keys.privateKeyPem).toString('base64'),
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    };
    const localPorts = new Map<AppName, number>();
    for (const name of compose.apps.keys()) localPorts.set(name, await freePort());
    /** test-only settings on top of compose's: the receiver is on loopback, quieter logs */
    const extra: Partial<Record<AppName, Record<string, string>>> = { webhooks: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } };
    const envOf = (name: AppName) => ({ ...localEnv(compose.apps.get(name)!, compose.apps, localPorts, db.url, vars, busEnv), LOG_LEVEL: 'warn', ...(extra[name] ?? {}) });

    // the services (in compose's order: each may migrate its schema at once), then the gateway in front of them
    const started = services.map((name) => startProcess(name, compose.apps.get(name)!.entry, envOf(name)));
    procs.push(...started);
    await Promise.all(started.map((p) => untilReady(p, `http://127.0.0.1:${localPorts.get(p.name)}/ready`)));
    // a second process of these services, as a scaled-out deployment runs them: the same settings on
    // another port (the gateway keeps calling the first; both consume, in the same consumer groups)
    for (const name of options.replicas ?? []) {
      const port = await freePort();
      const replica = startProcess(name, compose.apps.get(name)!.entry, { ...envOf(name), PORT: String(port) });
      replicas.push(replica);
      await untilReady(replica, `http://127.0.0.1:${port}/ready`);
    }
    const gateway = startProcess('gateway', compose.apps.get('gateway')!.entry, envOf('gateway'));
    procs.push(gateway);
    base = `http://127.0.0.1:${localPorts.get('gateway')}`;
    await untilReady(gateway, `${base}/api/ready`);
  });

  afterAll(async () => {
    for (const p of [...procs, ...replicas]) if (p.child.exitCode === null) p.child.kill('SIGTERM');
    await Promise.all(
      [...procs, ...replicas].map(async (p) => {
        // a graceful stop (SHUTDOWN_GRACE_MS), else killed
        const timer = setTimeout(() => p.child.kill('SIGKILL'), 15_000);
        await p.exited;
        clearTimeout(timer);
      }),
    );
    await receiver?.close();
    await db?.drop().catch(() => undefined);
  });

  describe(`the distributed mode as separate processes (docker-compose.yml settings, ${options.bus === 'kafka' ? 'Kafka and the schema registry' : 'the Postgres bus'})`, () => {
    it('runs each service in a process of its own', () => {
      expect(procs.map((p) => p.name).sort()).toEqual([...services, 'gateway'].sort());
      expect(new Set(procs.map((p) => p.child.pid)).size).toBe(procs.length);
    });

    it('a sale through the gateway decreases stock, updates the expected cash and delivers a webhook', async () => {
      const flow = await saleFlow(base, ADMIN, receiver);
      await options.afterFlow?.(flow, { topicPrefix });
    });
  });
}

function requiredEnv(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: the Kafka suites run with the test run's broker (test/global-setup.mjs)`);
  return v;
}
