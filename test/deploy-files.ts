/**
 * Reading the distributed mode's deployment files (docker-compose.yml, deploy/kustomization.yaml and
 * the k8s manifests) for test/deploy.test.ts and test/distributed.test.ts: which processes they run,
 * with which settings, and what each process may be given (its config schema).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import type { z } from 'zod';
import { serviceTable, type AreaService } from '@bop/contracts';
import { baseConfigSchema } from '@bop/shared';

export const ROOT = path.resolve(__dirname, '..');

export type AppName = AreaService | 'gateway';

/** The services of the service table that exist in this repository (a `services/<name>` folder with a main). */
export function existingServices(): AreaService[] {
  return (Object.keys(serviceTable) as AreaService[]).filter((name) => fs.existsSync(path.join(ROOT, 'services', name, 'src', 'main.ts')));
}

/** The port each app listens on in the distributed mode: the service table's, 8080 for the gateway. */
export function expectedPort(name: AppName): number {
  return name === 'gateway' ? 8080 : serviceTable[name].port;
}

/** The dist entry that runs an app (what the image's command names). */
export function entryOf(name: AppName): string {
  return name === 'gateway' ? 'gateway/dist/main.js' : `services/${name}/dist/main.js`;
}

function appOfEntry(entry: string): AppName | null {
  if (entry === 'gateway/dist/main.js') return 'gateway';
  const m = /^services\/([a-z]+)\/dist\/main\.js$/.exec(entry);
  return m && m[1] in serviceTable ? (m[1] as AreaService) : null;
}

/**
 * Variables read by the OpenTelemetry SDK itself (not by our config schemas): the only names outside
 * a schema that a deployment file may give a process. Exact names, so a misspelling is still caught.
 */
export const OTEL_SDK_VARIABLES = new Set(['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_SERVICE_NAME', 'OTEL_RESOURCE_ATTRIBUTES', 'OTEL_TRACES_SAMPLER', 'OTEL_TRACES_SAMPLER_ARG']);

/** The config schema a process validates its environment with: the gateway's, or the kit's base + the service's own. */
export async function configSchemaOf(name: AppName): Promise<z.ZodObject> {
  if (name === 'gateway') return (await import('@bop/gateway')).gatewayConfigSchema as unknown as z.ZodObject;
  const mod = (await import(`../services/${name}/src/index`)) as Record<string, unknown>;
  const def = Object.values(mod).find(
    (v): v is { name: string; configSchema?: z.ZodObject } => typeof v === 'object' && v !== null && (v as { name?: unknown }).name === name && 'migrations' in v,
  );
  if (!def) throw new Error(`services/${name}/src/index.ts exports no service definition named ${name}`);
  return baseConfigSchema.extend(def.configSchema?.shape ?? {}) as unknown as z.ZodObject;
}

/** Names a process is given that its config schema does not know (nor the OpenTelemetry SDK): misspelt or misplaced. */
export function unknownVariables(names: Iterable<string>, schema: z.ZodObject): string[] {
  const known = new Set(Object.keys(schema.shape));
  return [...names].filter((n) => !known.has(n) && !OTEL_SDK_VARIABLES.has(n)).sort();
}

const SERVICE_NAMES = Object.keys(serviceTable).join('|');
const CALL_PATTERNS = [
  // callCommand(services, 'inventory', …) and call(this.client, 'identity', …), generics allowed
  new RegExp(String.raw`\b(?:call|callCommand)\s*(?:<[^()]*?>)?\(\s*[\w.]+\s*,\s*'(${SERVICE_NAMES})'`, 'g'),
  // read-through replicas: readThroughReplica({ owner: 'inventory', … })
  new RegExp(String.raw`\bowner:\s*'(${SERVICE_NAMES})'`, 'g'),
];
/** kit helpers that read locations through from organization when the replica lacks them */
const ORG_READ_THROUGH = /\b(resolveLocations|replicaLocationErrors|writableLocations|locationsInOrgUnitsOf|parseLocatedRecords|locateRecords|locationReadThrough)\b/;
/** kit helpers that read employees through from people when the replica lacks them */
const PEOPLE_READ_THROUGH = /\b(resolveEmployees|employeeReadThrough)\b/;
/** kit helpers that ask the files service */
const FILES_CALLS = /\bresolveAttachments\s*\(/;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(p));
    else if (entry.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** The services a service calls (internal commands, read-throughs), found in its source. */
export function servicesCalledBy(name: AreaService): AreaService[] {
  const called = new Set<AreaService>();
  for (const file of sourceFiles(path.join(ROOT, 'services', name, 'src'))) {
    const text = fs.readFileSync(file, 'utf8');
    for (const re of CALL_PATTERNS) for (const m of text.matchAll(re)) called.add(m[1] as AreaService);
    if (ORG_READ_THROUGH.test(text)) called.add('organization');
    if (PEOPLE_READ_THROUGH.test(text)) called.add('people');
    if (FILES_CALLS.test(text)) called.add('files');
    // a list of services called in a loop: `const HOLDERS: AreaService[] = ['identity', 'files']`
    for (const list of text.matchAll(/:\s*AreaService\[\]\s*=\s*\[([^\]]*)\]/g)) {
      for (const m of list[1].matchAll(new RegExp(String.raw`'(${SERVICE_NAMES})'`, 'g'))) called.add(m[1] as AreaService);
    }
  }
  called.delete(name);
  return [...called].sort();
}

/** `${NAME}` and `${NAME:-default}` of a compose value, from `vars`. */
export function interpolate(value: string, vars: Record<string, string | undefined>): string {
  return value.replace(/\$\{([A-Z0-9_]+)(?::?-([^}]*))?\}/g, (_all, name: string, fallback: string | undefined) => vars[name] || fallback || '');
}

export interface ComposeApp {
  name: AppName;
  service: string;
  entry: string;
  /** as written (compose interpolation not applied) */
  env: Record<string, string>;
  dependsOn: string[];
}

export interface ComposeFile {
  services: Record<string, any>;
  apps: Map<AppName, ComposeApp>;
}

export function readCompose(file = path.join(ROOT, 'docker-compose.yml')): ComposeFile {
  const doc = parse(fs.readFileSync(file, 'utf8'), { merge: true }) as { services: Record<string, any> };
  const apps = new Map<AppName, ComposeApp>();
  for (const [service, def] of Object.entries(doc.services)) {
    const command = def.command as unknown;
    if (!Array.isArray(command) || command[0] !== 'node') continue;
    const name = appOfEntry(String(command[1]));
    if (!name) continue;
    const env = Object.fromEntries(Object.entries((def.environment ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
    const dependsOn = Array.isArray(def.depends_on) ? (def.depends_on as string[]) : Object.keys(def.depends_on ?? {});
    apps.set(name, { name, service, entry: String(command[1]), env, dependsOn });
  }
  return { services: doc.services, apps };
}

export interface K8sObject {
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
  file: string;
}

export interface K8sSet {
  kustomization: any;
  /** files under deploy/k8s (relative to deploy/) */
  files: string[];
  objects: K8sObject[];
}

export function readK8s(): K8sSet {
  const deploy = path.join(ROOT, 'deploy');
  const kustomization = parse(fs.readFileSync(path.join(deploy, 'kustomization.yaml'), 'utf8'));
  const files = fs
    .readdirSync(path.join(deploy, 'k8s'))
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => `k8s/${f}`)
    .sort();
  const objects: K8sObject[] = [];
  for (const resource of (kustomization.resources ?? []) as string[]) {
    const full = path.join(deploy, resource);
    if (!fs.existsSync(full)) continue;
    for (const doc of parseAllDocuments(fs.readFileSync(full, 'utf8'))) {
      if (doc.errors.length > 0) throw new Error(`${resource}: ${doc.errors.map((e) => e.message).join('; ')}`);
      const obj = doc.toJS() as K8sObject | null;
      if (obj) objects.push({ ...obj, file: resource });
    }
  }
  return { kustomization, files, objects };
}

export interface K8sApp {
  name: AppName;
  deployment: K8sObject;
  container: any;
  /** env entries by name (values as written, `valueFrom` entries as "<from secret>") plus the ConfigMaps given by envFrom */
  env: Record<string, string>;
}

export function k8sApps(set: K8sSet): Map<AppName, K8sApp> {
  const configMaps = new Map(set.objects.filter((o) => o.kind === 'ConfigMap').map((o) => [o.metadata.name, o.data ?? {}]));
  const apps = new Map<AppName, K8sApp>();
  for (const dep of set.objects.filter((o) => o.kind === 'Deployment' || o.kind === 'StatefulSet')) {
    for (const container of dep.spec?.template?.spec?.containers ?? []) {
      const command = container.command as unknown;
      if (!Array.isArray(command) || command[0] !== 'node') continue;
      const name = appOfEntry(String(command[1]));
      if (!name) continue;
      const env: Record<string, string> = {};
      for (const from of container.envFrom ?? []) {
        const ref = from.configMapRef?.name as string | undefined;
        if (!ref) throw new Error(`${dep.file}: ${name} takes envFrom other than a ConfigMap (name every variable so it can be checked)`);
        const data = configMaps.get(ref);
        if (!data) throw new Error(`${dep.file}: ${name} takes the ConfigMap ${ref}, which no listed manifest defines`);
        Object.assign(env, data);
      }
      for (const e of container.env ?? []) env[e.name] = e.value !== undefined ? String(e.value) : '<from secret>';
      apps.set(name, { name, deployment: dep, container, env });
    }
  }
  return apps;
}
