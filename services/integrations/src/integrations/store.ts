import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import type { IntegrationEventType, IntegrationListQuery, IntegrationManifest } from '@bop/contracts';
import { mapPage, findPage, changedFields, NotFound, ValidationError, type RouteContext, type ServiceRuntime, type Work } from '@bop/shared';
import type { IntegrationsConfig } from '../config';
import { Integration } from './entities';
import { integrationDetailDto, integrationDto } from './dto';
import { keyDto } from '../keys/dto';
import { keyRow, keysOf, noteRevoked } from '../keys/store';
import { applyConfigPatch, keepDeclared, sameValues, type ConfigValues } from './config-values';
import { sameScopes, scopesNarrowed } from './manifest';
import { IdentityCommands, newWebhookSecret, WebhookCommands, withUndo, type EndpointView, type MintedKey, type Undo } from './collaborators';

type Svc = ServiceRuntime<IntegrationsConfig>;

/** Grace of the old keys when a manifest change only adds scopes (they keep a subset of the new ones). */
export const MANIFEST_SCOPE_GRACE_MINUTES = 60;

export async function findIntegration(w: Work, id: string, lock = false): Promise<Integration> {
  const row = await w.em.findOne(Integration, { id }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!row) throw new NotFound('integration', id);
  return row;
}

/** Every integration, for the ops CLI. */
export function allIntegrations(w: Work): Promise<Integration[]> {
  return w.em.find(Integration, {}, { orderBy: { id: 'asc' } });
}

function emitEvent(w: Work, type: IntegrationEventType, row: Integration, previous?: Record<string, unknown>, extra?: Record<string, unknown>): void {
  const object = { ...integrationDto(row, w.now), ...(extra ?? {}) };
  w.emit({ type, aggregateType: 'integration', aggregateId: row.id, locationId: null, object, previous });
}

/** What pausing and resuming change (they are each other's undo). */
interface PauseChange {
  paused: boolean;
  status: 'paused' | 'active';
  event: IntegrationEventType;
  undoKeys: string;
  undoWebhooks: string;
}
const PAUSE: PauseChange = { paused: true, status: 'paused', event: 'integrations.integration.paused', undoKeys: 'resume the keys', undoWebhooks: 'resume the webhooks' };
const RESUME: PauseChange = { paused: false, status: 'active', event: 'integrations.integration.resumed', undoKeys: 'pause the keys again', undoWebhooks: 'pause the webhooks again' };

/**
 * The integration records and the changes that also ask other services (identity's keys, the webhooks
 * service's endpoints): their routes hold no transaction of the kit's (`{ transaction: false }`); each
 * such change opens its own (`ctx.transaction`), holds the record's lock in it and undoes the other
 * services' part when a later step fails, its commit included.
 */
export const integrationStore = (svc: Svc) => {
  const commands = (w: Work, requestId: string | undefined) => ({ identity: new IdentityCommands(w.services, requestId), webhooks: new WebhookCommands(w.services, requestId) });
  const intervalOf = (m: IntegrationManifest) => m.heartbeatIntervalSeconds ?? svc.config.INTEGRATION_HEARTBEAT_DEFAULT_SECONDS;

  /** Locks the integration in a transaction of its own for a change that also asks other services; undoes their part when it fails. */
  const change = <T>(ctx: RouteContext, id: string, work: (w: Work, row: Integration, undo: Undo) => Promise<T>) =>
    withUndo(ctx.log, (undo) => ctx.transaction(async (w) => work(w, await findIntegration(w, id, true), undo)));

  /** Pauses or resumes the keys (identity) and the webhooks, then the record; repeating it changes nothing. */
  const setPaused = (ctx: RouteContext, id: string, to: PauseChange) => {
    const { identity, webhooks } = commands(ctx, ctx.requestId);
    return change(ctx, id, async (w, row, undo) => {
      w.checkVersion(row.version);
      if (row.status === to.status) return integrationDto(row, w.now);
      undo.push(to.undoKeys, () => identity.setPaused(row.id, !to.paused));
      await identity.setPaused(row.id, to.paused);
      if (row.hasWebhookSecret) {
        undo.push(to.undoWebhooks, () => webhooks.setPaused(row.id, !to.paused));
        await webhooks.setPaused(row.id, to.paused);
      }
      const before = integrationDto(row, w.now);
      row.status = to.status;
      row.pausedAt = to.paused ? w.now : null;
      row.version += 1;
      row.updatedAt = w.now;
      emitEvent(w, to.event, row, changedFields(before, integrationDto(row, w.now)));
      return integrationDto(row, w.now);
    });
  };

  return {
    async list(w: Work, query: z.output<typeof IntegrationListQuery>) {
      const { limit, cursor, status, updatedSince } = query;
      const page = await findPage(w.em, Integration, [status && { status }], { limit, cursor, updatedSince });
      return mapPage(page, (r) => integrationDto(r, w.now));
    },

    // spec: Integration (none) → active; API key and webhook secret returned once
    register(ctx: RouteContext, id: string, manifest: IntegrationManifest, config: ConfigValues) {
      const { identity, webhooks } = commands(ctx, ctx.requestId);
      return withUndo(ctx.log, async (undo) => {
        // undo steps go first: an answer lost on the way must not leave a key or endpoint behind
        undo.push('revoke the keys', () => identity.revokeKeys({ integrationId: id }));
        const minted = await identity.mintKey(id, manifest.scopes, `${manifest.name} key`);
        let webhookSecret: string | null = null;
        let endpoints: EndpointView[] = [];
        if (manifest.webhooks.length > 0) {
          webhookSecret = newWebhookSecret();
          undo.push('delete the webhook endpoints', () => webhooks.deleteEndpoints(id));
          endpoints = await webhooks.putEndpoints(id, { webhooks: manifest.webhooks, scopes: manifest.scopes, secret: webhookSecret }, 'manifest');
        }
        const integration = await ctx.transaction(async (w) => {
          const row = w.em.create(Integration, {
            id,
            name: manifest.name,
            description: manifest.description,
            status: 'active',
            manifest,
            config,
            heartbeatIntervalSeconds: intervalOf(manifest),
            reportedHealth: null,
            healthMessage: null,
            lastHeartbeatAt: null,
            hasWebhookSecret: webhookSecret !== null,
            pausedAt: null,
            version: 1,
            createdAt: w.now,
            updatedAt: w.now,
          });
          await w.em.flush();
          const key = keyRow(w, minted);
          emitEvent(w, 'integrations.integration.registered', row);
          return integrationDetailDto(row, [key], endpoints, w.now);
        });
        return { integration, apiKey: minted.key, webhookSecret };
      });
    },

    async read(w: Work, id: string, requestId?: string) {
      const row = await findIntegration(w, id);
      const keys = await keysOf(w, row.id);
      let endpoints: EndpointView[] | null = [];
      if (row.hasWebhookSecret) {
        // the record is ours; the endpoints are the webhooks service's: show the rest when it is away
        endpoints = await commands(w, requestId)
          .webhooks.getEndpoints(row.id)
          .catch((err) => {
            w.log.warn({ err: (err as Error).message, integrationId: row.id }, 'integrations: webhook endpoints unavailable');
            return null;
          });
      }
      return integrationDetailDto(row, keys, endpoints, w.now);
    },

    // spec supplement: Integration active|paused → removed; keys, config, logs and webhook endpoint removed
    async remove(ctx: RouteContext, id: string) {
      const { identity, webhooks } = commands(ctx, ctx.requestId);
      await change(ctx, id, async (w, row, undo) => {
        w.checkVersion(row.version);
        // keys first: a failure later leaves the record (and a retry finishes) but never a working key
        const revoked = await identity.revokeKeys({ integrationId: row.id });
        undo.push('note the revoked keys', () => svc.write((u) => noteRevoked(u, row.id, revoked)));
        if (row.hasWebhookSecret) await webhooks.deleteEndpoints(row.id);
        emitEvent(w, 'integrations.integration.deleted', row);
        await w.em.nativeDelete(Integration, { id: row.id });
      });
    },

    replaceManifest(ctx: RouteContext, id: string, manifest: IntegrationManifest) {
      const { identity, webhooks } = commands(ctx, ctx.requestId);
      return change(ctx, id, async (w, row, undo) => {
        w.checkVersion(row.version);
        const old = row.manifest;
        // identity keys carry their scopes: new scopes need a new key (returned once)
        let minted: MintedKey | null = null;
        if (!sameScopes(old.scopes, manifest.scopes)) {
          undo.push('revoke the new key', async () => minted && identity.revokeKeys({ integrationId: row.id, keyId: minted.id }));
          minted = await identity.mintKey(row.id, manifest.scopes, `${manifest.name} key`);
        }
        let webhookSecret: string | null = null;
        let endpoints: EndpointView[] | null = [];
        if (manifest.webhooks.length > 0 || row.hasWebhookSecret) {
          // the secret is sent only the first time; later it would replace the integration's secret
          if (!row.hasWebhookSecret) webhookSecret = newWebhookSecret();
          undo.push('restore the webhook endpoints', () =>
            row.hasWebhookSecret ? webhooks.putEndpoints(row.id, { webhooks: old.webhooks, scopes: old.scopes }, '') : webhooks.deleteEndpoints(row.id),
          );
          endpoints = await webhooks.putEndpoints(row.id, { webhooks: manifest.webhooks, scopes: manifest.scopes, ...(webhookSecret ? { secret: webhookSecret } : {}) }, '');
          // endpoints created while paused wait too
          if (webhookSecret && row.status === 'paused') await webhooks.setPaused(row.id, true);
        }
        let revoked: Array<{ id: string; revokedAt: string }> = [];
        if (minted) {
          // removed scopes stop at once; added ones leave the old keys a subset, so they get a grace
          const graceMinutes = scopesNarrowed(old.scopes, manifest.scopes) ? 0 : MANIFEST_SCOPE_GRACE_MINUTES;
          revoked = await identity.revokeKeys({ integrationId: row.id, exceptKeyIds: [minted.id], graceMinutes });
        }
        if (minted) {
          await noteRevoked(w, row.id, revoked);
          keyRow(w, minted);
        }
        const before = integrationDto(row, w.now);
        row.manifest = manifest;
        row.name = manifest.name;
        row.description = manifest.description;
        row.heartbeatIntervalSeconds = intervalOf(manifest);
        row.config = keepDeclared(manifest.config, row.config);
        row.hasWebhookSecret = row.hasWebhookSecret || webhookSecret !== null;
        const previous = changedFields(before, integrationDto(row, w.now));
        if (Object.keys(previous).length > 0 || minted) {
          row.version += 1;
          row.updatedAt = w.now;
          emitEvent(w, 'integrations.integration.updated', row, previous);
        }
        await w.em.flush();
        return { integration: integrationDetailDto(row, await keysOf(w, row.id), endpoints, w.now), apiKey: minted?.key ?? null, webhookSecret };
      });
    },

    async patchConfig(w: Work, id: string, patch: Parameters<typeof applyConfigPatch>[2]) {
      const row = await findIntegration(w, id, true);
      w.checkVersion(row.version);
      const { values, errors } = applyConfigPatch(row.manifest.config, row.config, patch);
      if (errors.length > 0) throw new ValidationError(errors);
      if (sameValues(values, row.config)) return integrationDto(row, w.now);
      const before = integrationDto(row, w.now);
      row.config = values;
      row.version += 1;
      row.updatedAt = w.now;
      emitEvent(w, 'integrations.integration.updated', row, changedFields(before, integrationDto(row, w.now)));
      return integrationDto(row, w.now);
    },

    // spec: Integration active → paused; its keys are refused, its webhooks wait (repeating it changes nothing)
    pause: (ctx: RouteContext, id: string) => setPaused(ctx, id, PAUSE),

    // spec: Integration paused → active; queued events are sent in order (the webhooks service's part)
    resume: (ctx: RouteContext, id: string) => setPaused(ctx, id, RESUME),

    // spec: Integration key current → new key issued; old keys keep working for graceMinutes
    rotateKey(ctx: RouteContext, id: string, graceMinutes: number | undefined) {
      const { identity } = commands(ctx, ctx.requestId);
      return change(ctx, id, async (w, row, undo) => {
        let minted: MintedKey | null = null;
        undo.push('revoke the new key', async () => minted && identity.revokeKeys({ integrationId: row.id, keyId: minted.id }));
        minted = await identity.mintKey(row.id, row.manifest.scopes, `${row.manifest.name} key`);
        const revoked = await identity.revokeKeys({ integrationId: row.id, exceptKeyIds: [minted.id], graceMinutes });
        await noteRevoked(w, row.id, revoked);
        const key = keyRow(w, minted);
        emitEvent(w, 'integrations.integration.key_rotated', row, undefined, {
          rotatedKey: { id: minted.id, prefix: minted.prefix },
          revokedKeys: revoked,
        });
        await w.em.flush();
        return { integration: integrationDto(row, w.now), apiKey: minted.key, key: keyDto(key, w.now), keys: (await keysOf(w, row.id)).map((k) => keyDto(k, w.now)) };
      });
    },
  };
};
