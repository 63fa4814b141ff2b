import { randomBytes } from 'node:crypto';
import type { AreaService } from '@bop/contracts';
import { callCommand, type Logger, type ServiceClient } from '@bop/shared';

export interface MintedKey {
  id: string;
  key: string;
  prefix: string;
  integrationId: string;
  scopes: string[];
  expiresAt: string | null;
}

export interface EndpointView {
  id: string;
  url: string;
  events: string[];
  status: string;
  pendingDeliveries?: number;
  failedDeliveries?: number;
}

/** A new webhook signing secret: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

const call = <T>(client: ServiceClient, service: AreaService, what: string, method: string, path: string, body: unknown, requestId: string | undefined, ok: number[], fieldPrefix?: string) =>
  callCommand<T>(client, service, method, path, body, { what, ok, requestId, fieldPrefix });

/** Identity's internal commands for integration keys (services/identity/src/internal/routes.ts). */
export class IdentityCommands {
  constructor(private readonly client: ServiceClient, private readonly requestId?: string) {}

  mintKey(integrationId: string, scopes: string[], name: string): Promise<MintedKey> {
    return call(this.client, 'identity', 'issue a key', 'POST', '/internal/integration-keys', { integrationId, scopes, name }, this.requestId, [201]);
  }

  async revokeKeys(input: { integrationId: string; keyId?: string; exceptKeyIds?: string[]; graceMinutes?: number }): Promise<Array<{ id: string; revokedAt: string }>> {
    const body = await call<{ revoked: Array<{ id: string; revokedAt: string }> }>(this.client, 'identity', 'revoke keys', 'POST', '/internal/integration-keys:revoke', input, this.requestId, [200]);
    return body.revoked;
  }

  async setPaused(integrationId: string, paused: boolean): Promise<void> {
    await call(this.client, 'identity', paused ? 'pause the keys' : 'resume the keys', 'POST', `/internal/integrations/${encodeURIComponent(integrationId)}:${paused ? 'pause' : 'resume'}`, undefined, this.requestId, [200]);
  }
}

/** The webhooks service's internal commands for an integration's endpoints. */
export class WebhookCommands {
  constructor(private readonly client: ServiceClient, private readonly requestId?: string) {}

  private path(integrationId: string, rest = ''): string {
    return `/internal/integrations/${encodeURIComponent(integrationId)}${rest}`;
  }

  /** Replaces the endpoint set; its field errors come back under `fieldPrefix` (e.g. `manifest`). */
  async putEndpoints(integrationId: string, input: { webhooks: Array<{ url: string; events: string[] }>; scopes: string[]; secret?: string }, fieldPrefix: string): Promise<EndpointView[]> {
    const body = await call<{ endpoints: EndpointView[] }>(this.client, 'webhooks', 'set the webhook endpoints', 'PUT', this.path(integrationId, '/endpoints'), input, this.requestId, [200], fieldPrefix);
    return body.endpoints;
  }

  async getEndpoints(integrationId: string): Promise<EndpointView[]> {
    const body = await call<{ endpoints: EndpointView[] }>(this.client, 'webhooks', 'list the webhook endpoints', 'GET', this.path(integrationId, '/endpoints'), undefined, this.requestId, [200]);
    return body.endpoints;
  }

  async deleteEndpoints(integrationId: string): Promise<void> {
    await call(this.client, 'webhooks', 'delete the webhook endpoints', 'DELETE', this.path(integrationId, '/endpoints'), undefined, this.requestId, [204, 404]);
  }

  async setPaused(integrationId: string, paused: boolean): Promise<void> {
    await call(this.client, 'webhooks', paused ? 'pause the webhooks' : 'resume the webhooks', 'POST', this.path(integrationId, paused ? ':pause' : ':resume'), undefined, this.requestId, [200]);
  }
}

/**
 * Undo steps of a change that spans services: when a later step fails, the earlier ones are undone
 * (latest first) so nothing is left half-done; an undo that fails is logged, not thrown over the cause.
 */
export class Undo {
  private readonly steps: Array<{ what: string; run: () => Promise<unknown> }> = [];
  constructor(private readonly log: Logger) {}

  push(what: string, run: () => Promise<unknown>): void {
    this.steps.push({ what, run });
  }

  async run(): Promise<void> {
    for (const step of this.steps.splice(0).reverse()) {
      try {
        await step.run();
      } catch (err) {
        this.log.error({ err, undo: step.what }, 'integrations: undo failed; state may need repair');
      }
    }
  }
}

export async function withUndo<T>(log: Logger, work: (undo: Undo) => Promise<T>): Promise<T> {
  const undo = new Undo(log);
  try {
    return await work(undo);
  } catch (err) {
    await undo.run();
    throw err;
  }
}
