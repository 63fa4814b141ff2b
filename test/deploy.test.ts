/**
 * docker-compose.yml and the k8s manifests against the service table and the config schemas: every
 * service that exists runs (and the gateway), each on its own port, with a SERVICE_URL_<NAME> for each
 * service it calls, and every variable given to a process is one its config schema knows — a misspelt
 * variable fails here instead of being ignored at start.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '@bop/shared';
import {
  ROOT,
  configSchemaOf,
  existingServices,
  expectedPort,
  entryOf,
  interpolate,
  k8sApps,
  readCompose,
  readK8s,
  servicesCalledBy,
  unknownVariables,
  type AppName,
} from './deploy-files';

const services = existingServices();
const apps: AppName[] = [...services, 'gateway'];
const compose = readCompose();
const k8s = readK8s();
const kApps = k8sApps(k8s);

/** stand-ins for what compose takes from .env (a base64 PEM is just text to the schema) */
const composeVars = { INTERNAL_JWT_PUBLIC_KEY: 'cHVibGlj', INTERNAL_JWT_PRIVATE_KEY: 'cHJpdmF0ZQ==', BOOTSTRAP_ADMIN_PASSWORD: 'a-long-enough-password' };

/** what a process needs to call each of `called`, given its settings */
function wiringProblems(name: AppName, env: Record<string, string>, urlOf: (target: AppName) => string): string[] {
  const problems: string[] = [];
  const called = name === 'gateway' ? services : servicesCalledBy(name);
  for (const target of called) {
    const key = `SERVICE_URL_${target.toUpperCase()}`;
    if (!services.includes(target)) problems.push(`${name} calls ${target}, which has no services/${target}`);
    else if (env[key] !== urlOf(target)) problems.push(`${name}: ${key} is ${env[key] ?? 'missing'}, expected ${urlOf(target)}`);
  }
  for (const key of Object.keys(env).filter((k) => k.startsWith('SERVICE_URL_'))) {
    const target = key.slice('SERVICE_URL_'.length).toLowerCase();
    if (!called.includes(target as never)) problems.push(`${name}: ${key} is given but ${name} does not call ${target}`);
  }
  if (called.length > 0 && !env.INTERNAL_JWT_PRIVATE_KEY) problems.push(`${name} calls other services but has no INTERNAL_JWT_PRIVATE_KEY`);
  if (!env.DATABASE_URL) problems.push(`${name}: no DATABASE_URL`);
  if (name !== 'gateway' && !env.INTERNAL_JWT_PUBLIC_KEY) problems.push(`${name}: no INTERNAL_JWT_PUBLIC_KEY`);
  if (Number(env.PORT) !== expectedPort(name)) problems.push(`${name}: PORT is ${env.PORT ?? 'missing'}, expected ${expectedPort(name)}`);
  return problems;
}

describe('docker-compose.yml', () => {
  it('runs the gateway and every service that exists, and the infrastructure', () => {
    expect([...compose.apps.keys()].sort()).toEqual([...apps].sort());
    for (const name of apps) expect(compose.apps.get(name)!.entry).toBe(entryOf(name));
    for (const infra of ['postgres', 'kafka', 'schema-registry', 'otel-collector', 'prometheus', 'grafana']) expect(compose.services[infra]).toBeDefined();
    // the configs it mounts from this repository (deploy/grafana/ comes with the dashboards)
    expect(compose.services['otel-collector'].volumes.join(' ')).toContain('./deploy/otel/config.yaml:');
    expect(compose.services.prometheus.volumes.join(' ')).toContain('./deploy/prometheus/prometheus.yml:');
    expect(fs.existsSync(path.join(ROOT, 'deploy/otel/config.yaml'))).toBe(true);
  });

  it.each(apps)('%s: every variable is in its config schema, and the values pass it', async (name) => {
    const app = compose.apps.get(name)!;
    const schema = await configSchemaOf(name);
    expect(unknownVariables(Object.keys(app.env), schema)).toEqual([]);
    const env = Object.fromEntries(Object.entries(app.env).map(([k, v]) => [k, interpolate(v, composeVars)]));
    expect(() => loadConfig(schema, env)).not.toThrow();
  });

  it.each(apps)('%s: its own port, and SERVICE_URL_<NAME> for each service it calls', (name) => {
    const app = compose.apps.get(name)!;
    const urlOf = (target: AppName) => `http://${compose.apps.get(target)?.service ?? target}:${expectedPort(target)}`;
    expect(wiringProblems(name, app.env, urlOf)).toEqual([]);
    // a service it calls starts before it (or at least is declared as a dependency)
    if (name === 'gateway') for (const s of services) expect(app.dependsOn).toContain(s);
    // the shared infrastructure it is pointed at is in the file
    for (const key of ['DATABASE_URL', 'KAFKA_BROKERS', 'SCHEMA_REGISTRY_URL', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'REDIS_URL']) {
      if (!app.env[key]) continue;
      const host = new URL(app.env[key].includes('://') ? app.env[key] : `tcp://${app.env[key].split(',')[0]}`).hostname;
      expect(compose.services[host]).toBeDefined();
    }
  });

  it('the ports differ', () => {
    const ports = apps.map((n) => compose.apps.get(n)!.env.PORT);
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('catches a misspelt or misplaced variable', async () => {
    const sales = await configSchemaOf('sales');
    expect(unknownVariables(['DATABSE_URL', 'PORT', 'API_MAX_BATCH_SIZE'], sales)).toEqual(['DATABSE_URL']);
    // a gateway setting given to a service is refused too (services keep no rate-limit counters)
    expect(unknownVariables(['REDIS_URL', 'WEBHOOK_TIMEOUT_MS'], sales)).toEqual(['REDIS_URL', 'WEBHOOK_TIMEOUT_MS']);
    expect(unknownVariables(['WEBHOOK_TIMEOUT_MS', 'OTEL_EXPORTER_OTLP_ENDPOINT'], await configSchemaOf('webhooks'))).toEqual([]);
    const gateway = await configSchemaOf('gateway');
    expect(unknownVariables(['REDIS_URL', 'SERVICE_URL_SALES', 'SERVICE_URL_SALEZ', 'OTEL_EXPORTER_OTLP_ENDPOIN'], gateway)).toEqual(['OTEL_EXPORTER_OTLP_ENDPOIN', 'SERVICE_URL_SALEZ']);
    // and a missing wire is found
    const sales_ = { ...compose.apps.get('sales')!.env };
    delete sales_.SERVICE_URL_INVENTORY;
    expect(wiringProblems('sales', sales_, (t) => `http://${t}:${expectedPort(t)}`)).toEqual([expect.stringContaining('SERVICE_URL_INVENTORY is missing')]);
  });
});

describe('deploy/kustomization.yaml and deploy/k8s', () => {
  it('lists every manifest of deploy/k8s, and the configs it generates exist', () => {
    const resources = (k8s.kustomization.resources as string[]).slice().sort();
    expect(resources).toEqual(k8s.files);
    for (const gen of k8s.kustomization.configMapGenerator ?? []) {
      for (const f of gen.files as string[]) expect(fs.existsSync(path.join(ROOT, 'deploy', f.split('=').pop()!))).toBe(true);
    }
  });

  it('runs the gateway and every service that exists, and the infrastructure', () => {
    expect([...kApps.keys()].sort()).toEqual([...apps].sort());
    const names = new Set(k8s.objects.filter((o) => o.kind === 'Deployment' || o.kind === 'StatefulSet').map((o) => o.metadata.name));
    for (const infra of ['postgres', 'kafka', 'schema-registry', 'otel-collector', 'prometheus', 'grafana']) expect(names).toContain(infra);
  });

  it.each(apps)('%s: every variable is in its config schema, its own port and Service, SERVICE_URL_<NAME> per service it calls', async (name) => {
    const app = kApps.get(name)!;
    expect(app.container.command).toEqual(['node', entryOf(name)]);
    expect(unknownVariables(Object.keys(app.env), await configSchemaOf(name))).toEqual([]);
    const servicePort = (target: AppName): number | undefined => {
      const svc = k8s.objects.find((o) => o.kind === 'Service' && o.metadata.name === (target === 'gateway' ? 'gateway' : target));
      return svc?.spec.ports.find((p: { targetPort: number }) => p.targetPort === expectedPort(target))?.port;
    };
    const urlOf = (target: AppName) => `http://${target}:${servicePort(target) ?? '(no Service)'}`;
    expect(wiringProblems(name, app.env, urlOf)).toEqual([]);
    expect(app.container.ports.map((p: { containerPort: number }) => p.containerPort)).toContain(expectedPort(name));
    expect(servicePort(name)).toBeDefined();
    const labels = app.deployment.spec.template.metadata.labels;
    const svc = k8s.objects.find((o) => o.kind === 'Service' && o.metadata.name === name)!;
    for (const [k, v] of Object.entries(svc.spec.selector as Record<string, string>)) expect(labels[k]).toBe(v);
  });

  it('points the processes at infrastructure it runs (the bop-config hosts and ports are Services)', () => {
    const config = k8s.objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'bop-config')!;
    const targets = [config.data!.KAFKA_BROKERS, config.data!.SCHEMA_REGISTRY_URL, config.data!.OTEL_EXPORTER_OTLP_ENDPOINT, kApps.get('gateway')!.env.REDIS_URL];
    for (const target of targets) {
      const u = new URL(target.includes('://') ? target : `tcp://${target.split(',')[0]}`);
      const svc = k8s.objects.find((o) => o.kind === 'Service' && o.metadata.name === u.hostname);
      expect([target, svc?.spec.ports.map((p: { port: number }) => String(p.port))]).toEqual([target, expect.arrayContaining([u.port])]);
    }
    expect(config.data!.BUS).toBe('kafka');
  });

  it('gives each service the same wiring as docker-compose.yml', () => {
    for (const name of apps) {
      const urls = (env: Record<string, string>) => Object.keys(env).filter((k) => k.startsWith('SERVICE_URL_') || k === 'INTERNAL_JWT_PRIVATE_KEY' || k === 'REDIS_URL').sort();
      expect([name, urls(kApps.get(name)!.env)]).toEqual([name, urls(compose.apps.get(name)!.env)]);
    }
  });
});
