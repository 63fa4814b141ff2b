import type { Principal } from '@bop/shared';
import { sql, system, verifySignature, type TestService, type TestServices } from '@bop/test-support';

let n = 0;
export function manifestBody(over: Record<string, unknown> = {}) {
  n += 1;
  return {
    name: `POS bridge ${n}`,
    version: '1.0.0',
    description: 'Sends sales from the till',
    scopes: ['sales:write', 'organization:read'],
    ...over,
  };
}

export interface Registered {
  integration: { id: string; version: number; [k: string]: any };
  apiKey: string;
  webhookSecret: string | null;
}

export async function register(t: TestService, manifest: Record<string, unknown> = {}, config?: Record<string, unknown>): Promise<Registered> {
  const res = await t.call('POST', '/integrations', { body: { manifest: manifestBody(manifest), ...(config ? { config } : {}) } });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Registered;
}

/** What identity's /internal/authenticate answers for a key (the gateway's view of it). */
export async function authenticate(stack: TestServices, key: string) {
  return stack.services.identity.call('POST', '/internal/authenticate', { as: system, body: { token: key } });
}

export async function principalOf(stack: TestServices, key: string): Promise<Principal> {
  const r = await authenticate(stack, key);
  if (r.status !== 200) throw new Error(`authenticate: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.principal as Principal;
}

/** Counts of what the integrations schema holds for an integration. */
export async function stored(stack: TestServices, integrationId: string) {
  const [row] = await sql<{ integrations: string; keys: string; logs: string; batches: string }>(
    stack,
    `select (select count(*) from integrations.integrations where id = $1) as integrations,
            (select count(*) from integrations.integration_keys where integration_id = $1) as keys,
            (select count(*) from integrations.integration_logs where integration_id = $1) as logs,
            (select count(*) from integrations.ingestion_batches where integration_id = $1) as batches`,
    [integrationId],
  );
  return { integrations: Number(row.integrations), keys: Number(row.keys), logs: Number(row.logs), batches: Number(row.batches) };
}

/** spec: Events, Signature — a delivery's `service-signature` header checked as a receiver would (any v1 signature valid). */
export function signatureValid(secret: string, header: string, body: string): boolean {
  return verifySignature(header, body, secret).valid > 0;
}
