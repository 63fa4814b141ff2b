import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import type { IntegrationEventType, IntegrationListQuery, IntegrationManifest } from '@bop/contracts';
import { mapPage, findPage, changedFields, NotFound, recordEvent, ValidationError, type EntityManager, type Principal, type RouteContext, type ServiceRuntime } from '@bop/shared';
import type { IntegrationsConfig } from '../config';
import { Integration } from './entities';
import { integrationDetailDto, integrationDto } from './dto';
import { keyDto } from '../keys/dto';
import { keyRow, keysOf, noteRevoked } from '../keys/store';
import { applyConfigPatch, keepDeclared, sameValues, type ConfigValues } from './config-values';
import { sameScopes, scopesNarrowed } from './manifest';
import { IdentityCommands, newWebhookSecret, WebhookCommands, withUndo, type EndpointView, type MintedKey, type Undo } from './collaborators';

type Svc = ServiceRuntime<IntegrationsConfig>;

/** What a change needs of its request: its entity manager and log, who acts, the If-Match check. */
export type Caller = Pick<RouteContext, 'em' | 'log' | 'requestId' | 'principal' | 'checkVersion'>;

/** Grace of the old keys when a manifest change only adds scopes (they keep a subset of the new ones). */
export const MANIFEST_SCOPE_GRACE_MINUTES = 60;

export async function findIntegration(em: EntityManager, id: string, lock = false): Promise<Integration> {
  const row = await em.findOne(Integration, { id }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!row) throw new NotFound('integration', id);
  return row;
}

/** Every integration, for the ops CLI (on a fork, so any EntityManager will do). */
export function allIntegrations(em: EntityManager): Promise<Integration[]> {
  return em.fork().find(Integration, {}, { orderBy: { id: 'asc' } });
}

function emit(em: EntityManager, type: IntegrationEventType, row: Integration, now: Date, actor: Principal, previous?: Record<string, unknown>, extra?: Record<string, unknown>): void {
  const object = { ...integrationDto(row, now), ...(extra ?? {}) };
  recordEvent(em, { type, aggregateType: 'integration', aggregateId: row.id, locationId: null, object, previous, actor });
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
 * service's endpoints): each such change holds the record's lock and undoes the other services' part
 * when a later step fails.
 */
export const integrationStore = (svc: Svc) => {
  const commands = (requestId: string) => ({ identity: new IdentityCommands(svc.services, requestId), webhooks: new WebhookCommands(svc.services, requestId) });
  const intervalOf = (m: IntegrationManifest) => m.heartbeatIntervalSeconds ?? svc.config.INTEGRATION_HEARTBEAT_DEFAULT_SECONDS;

  /** Locks the integration for a change that also asks other services; undoes their part when it fails. */
  const change = <T>(ctx: { em: EntityManager; log: Svc['log'] }, id: string, work: (em: EntityManager, row: Integration, undo: Undo) => Promise<T>) =>
    withUndo(ctx.log, (undo) => ctx.em.transactional(async (em) => work(em, await findIntegration(em, id, true), undo)));

  /** Pauses or resumes the keys (identity) and the webhooks, then the record; repeating it changes nothing. */
  const setPaused = (ctx: Caller, id: string, to: PauseChange) => {
    const { identity, webhooks } = commands(ctx.requestId);
    return change(ctx, id, async (em, row, undo) => {
      ctx.checkVersion(row.version);
      const now = svc.clock.now();
      if (row.status === to.status) return integrationDto(row, now);
      undo.push(to.undoKeys, () => identity.setPaused(row.id, !to.paused));
      await identity.setPaused(row.id, to.paused);
      if (row.hasWebhookSecret) {
        undo.push(to.undoWebhooks, () => webhooks.setPaused(row.id, !to.paused));
        await webhooks.setPaused(row.id, to.paused);
      }
      const before = integrationDto(row, now);
      row.status = to.status;
      row.pausedAt = to.paused ? now : null;
      row.version += 1;
      row.updatedAt = now;
      emit(em, to.event, row, now, ctx.principal, changedFields(before, integrationDto(row, now)));
      return integrationDto(row, now);
    });
  };

  return {
    async list(em: EntityManager, query: z.output<typeof IntegrationListQuery>) {
      const { limit, cursor, status } = query;
      const page = await findPage(em, Integration, [status && { status }], { limit, cursor });
      const now = svc.clock.now();
      return mapPage(page, (r) => integrationDto(r, now));
    },

    // spec: Integration (none) → active; API key and webhook secret returned once
    register(ctx: Caller, id: string, manifest: IntegrationManifest, config: ConfigValues) {
      const { identity, webhooks } = commands(ctx.requestId);
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
        const now = svc.clock.now();
        const integration = await ctx.em.transactional(async (em) => {
          const row = em.create(Integration, {
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
            createdAt: now,
            updatedAt: now,
          });
          await em.flush();
          const key = keyRow(em, minted, now);
          emit(em, 'integrations.integration.registered', row, now, ctx.principal);
          return integrationDetailDto(row, [key], endpoints, now);
        });
        return { integration, apiKey: minted.key, webhookSecret };
      });
    },

    async read(ctx: Pick<Caller, 'em' | 'log' | 'requestId'>, id: string) {
      const row = await findIntegration(ctx.em, id);
      const keys = await keysOf(ctx.em, row.id);
      let endpoints: EndpointView[] | null = [];
      if (row.hasWebhookSecret) {
        // the record is ours; the endpoints are the webhooks service's: show the rest when it is away
        endpoints = await commands(ctx.requestId)
          .webhooks.getEndpoints(row.id)
          .catch((err) => {
            ctx.log.warn({ err: (err as Error).message, integrationId: row.id }, 'integrations: webhook endpoints unavailable');
            return null;
          });
      }
      return integrationDetailDto(row, keys, endpoints, svc.clock.now());
    },

    // spec supplement: Integration active|paused → removed; keys, config, logs and webhook endpoint removed
    async remove(ctx: Caller, id: string) {
      const { identity, webhooks } = commands(ctx.requestId);
      await change(ctx, id, async (em, row, undo) => {
        ctx.checkVersion(row.version);
        // keys first: a failure later leaves the record (and a retry finishes) but never a working key
        const revoked = await identity.revokeKeys({ integrationId: row.id });
        undo.push('note the revoked keys', () => noteRevoked(svc.orm.em.fork(), row.id, revoked, true));
        if (row.hasWebhookSecret) await webhooks.deleteEndpoints(row.id);
        const now = svc.clock.now();
        emit(em, 'integrations.integration.deleted', row, now, ctx.principal);
        await em.nativeDelete(Integration, { id: row.id });
      });
    },

    replaceManifest(ctx: Caller, id: string, manifest: IntegrationManifest) {
      const { identity, webhooks } = commands(ctx.requestId);
      return change(ctx, id, async (em, row, undo) => {
        ctx.checkVersion(row.version);
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
        const now = svc.clock.now();
        if (minted) {
          await noteRevoked(em, row.id, revoked);
          keyRow(em, minted, now);
        }
        const before = integrationDto(row, now);
        row.manifest = manifest;
        row.name = manifest.name;
        row.description = manifest.description;
        row.heartbeatIntervalSeconds = intervalOf(manifest);
        row.config = keepDeclared(manifest.config, row.config);
        row.hasWebhookSecret = row.hasWebhookSecret || webhookSecret !== null;
        const previous = changedFields(before, integrationDto(row, now));
        if (Object.keys(previous).length > 0 || minted) {
          row.version += 1;
          row.updatedAt = now;
          emit(em, 'integrations.integration.updated', row, now, ctx.principal, previous);
        }
        await em.flush();
        return { integration: integrationDetailDto(row, await keysOf(em, row.id), endpoints, now), apiKey: minted?.key ?? null, webhookSecret };
      });
    },

    patchConfig(ctx: Caller, id: string, patch: Parameters<typeof applyConfigPatch>[2]) {
      return ctx.em.transactional(async (em) => {
        const row = await findIntegration(em, id, true);
        ctx.checkVersion(row.version);
        const { values, errors } = applyConfigPatch(row.manifest.config, row.config, patch);
        if (errors.length > 0) throw new ValidationError(errors);
        const now = svc.clock.now();
        if (sameValues(values, row.config)) return integrationDto(row, now);
        const before = integrationDto(row, now);
        row.config = values;
        row.version += 1;
        row.updatedAt = now;
        emit(em, 'integrations.integration.updated', row, now, ctx.principal, changedFields(before, integrationDto(row, now)));
        return integrationDto(row, now);
      });
    },

    // spec: Integration active → paused; its keys are refused, its webhooks wait (repeating it changes nothing)
    pause: (ctx: Caller, id: string) => setPaused(ctx, id, PAUSE),

    // spec: Integration paused → active; queued events are sent in order (the webhooks service's part)
    resume: (ctx: Caller, id: string) => setPaused(ctx, id, RESUME),

    // spec: Integration key current → new key issued; old keys keep working for graceMinutes
    rotateKey(ctx: Caller, id: string, graceMinutes: number | undefined) {
      const { identity } = commands(ctx.requestId);
      return change(ctx, id, async (em, row, undo) => {
        let minted: MintedKey | null = null;
        undo.push('revoke the new key', async () => minted && identity.revokeKeys({ integrationId: row.id, keyId: minted.id }));
        minted = await identity.mintKey(row.id, row.manifest.scopes, `${row.manifest.name} key`);
        const revoked = await identity.revokeKeys({ integrationId: row.id, exceptKeyIds: [minted.id], graceMinutes });
        const now = svc.clock.now();
        await noteRevoked(em, row.id, revoked);
        const key = keyRow(em, minted, now);
        emit(em, 'integrations.integration.key_rotated', row, now, ctx.principal, undefined, {
          rotatedKey: { id: minted.id, prefix: minted.prefix },
          revokedKeys: revoked,
        });
        await em.flush();
        return { integration: integrationDto(row, now), apiKey: minted.key, key: keyDto(key, now), keys: (await keysOf(em, row.id)).map((k) => keyDto(k, now)) };
      });
    },
  };
};
