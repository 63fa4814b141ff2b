import type { FilterQuery } from '@mikro-orm/core';
import type { IntegrationEventType, IntegrationManifest } from '@bop/contracts';
import {
  changedFields,
  created,
  decodeCursor,
  newId,
  noContent,
  ok,
  pageLimit,
  recordEvent,
  route,
  toPage,
  ValidationError,
  type EntityManager,
  type Principal,
  type RouteDef,
  type ServiceRuntime,
} from '@bop/shared';
import type { IntegrationsConfig } from '../config';
import { Integration, IntegrationKey } from '../entities';
import { integrationDetailDto, integrationDto, keyDto } from '../dto';
import { applyConfigPatch, configErrors, keepDeclared, sameValues } from '../domain/config';
import { manifestErrors, sameScopes, scopesNarrowed } from '../domain/manifest';
import { IdentityCommands, newWebhookSecret, WebhookCommands, withUndo, type EndpointView, type MintedKey, type Undo } from '../lib/collaborators';
import { assertManager, findIntegration } from './access';

type Svc = ServiceRuntime<IntegrationsConfig>;

/** Grace of the old keys when a manifest change only adds scopes (they keep a subset of the new ones). */
export const MANIFEST_SCOPE_GRACE_MINUTES = 60;

function emit(em: EntityManager, type: IntegrationEventType, row: Integration, now: Date, actor: Principal, previous?: Record<string, unknown>, extra?: Record<string, unknown>): void {
  const object = { ...integrationDto(row, now), ...(extra ?? {}) };
  recordEvent(em, { type, aggregateType: 'integration', aggregateId: row.id, locationId: null, object, previous, actor });
}

function keyRow(em: EntityManager, minted: MintedKey, now: Date): IntegrationKey {
  return em.create(IntegrationKey, {
    id: minted.id,
    integrationId: minted.integrationId,
    prefix: minted.prefix,
    scopes: minted.scopes,
    createdAt: now,
    expiresAt: minted.expiresAt ? new Date(minted.expiresAt) : null,
    revokedAt: null,
  });
}

/** Writes identity's revocations onto our copies of the keys. */
async function noteRevoked(em: EntityManager, integrationId: string, revoked: Array<{ id: string; revokedAt: string }>, flush = false): Promise<void> {
  if (revoked.length === 0) return;
  const keys = await em.find(IntegrationKey, { integrationId, id: { $in: revoked.map((r) => r.id) } });
  const at = new Map(revoked.map((r) => [r.id, new Date(r.revokedAt)]));
  for (const key of keys) key.revokedAt = at.get(key.id)!;
  if (flush) await em.flush();
}

const keysOf = (em: EntityManager, integrationId: string) => em.find(IntegrationKey, { integrationId }, { orderBy: { id: 'asc' } });

export const integrationRoutes = (svc: Svc): RouteDef[] => {
  const commands = (requestId: string) => ({ identity: new IdentityCommands(svc.services, requestId), webhooks: new WebhookCommands(svc.services, requestId) });
  const intervalOf = (m: IntegrationManifest) => m.heartbeatIntervalSeconds ?? svc.config.INTEGRATION_HEARTBEAT_DEFAULT_SECONDS;

  /** Locks the integration for a change that also asks other services; undoes their part when it fails. */
  const change = <T>(ctx: { em: EntityManager; log: Svc['log'] }, id: string, work: (em: EntityManager, row: Integration, undo: Undo) => Promise<T>) =>
    withUndo(ctx.log, (undo) => ctx.em.transactional(async (em) => work(em, await findIntegration(em, id, true), undo)));

  return [
    route('GET /integrations', async (ctx) => {
      assertManager(ctx);
      const { limit, cursor, status } = ctx.query;
      const where: FilterQuery<Integration> = {};
      const after = decodeCursor(cursor);
      if (after) where.id = { $gt: after };
      if (status) where.status = status;
      const n = pageLimit(limit);
      const rows = await ctx.em.find(Integration, where, { orderBy: { id: 'asc' }, limit: n + 1 });
      const now = svc.clock.now();
      return ok(toPage(rows, n, (r) => integrationDto(r, now)));
    }),

    // spec: Integration (none) → active; API key and webhook secret returned once
    route('POST /integrations', async (ctx) => {
      assertManager(ctx);
      const { manifest } = ctx.body;
      const config = ctx.body.config ?? {};
      const errors = [...manifestErrors(manifest, 'manifest'), ...configErrors(manifest.config, config)];
      if (errors.length > 0) throw new ValidationError(errors);
      const { identity, webhooks } = commands(ctx.requestId);
      const id = newId('integration');
      const body = await withUndo(ctx.log, async (undo) => {
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
      return { ...created(body), headers: { Location: `/api/v1/integrations/${id}` } };
    }),

    route('GET /integrations/{id}', async (ctx) => {
      assertManager(ctx);
      const row = await findIntegration(ctx.em, ctx.params.id);
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
      const body = integrationDetailDto(row, keys, endpoints, svc.clock.now());
      return ok(body, { ETag: `"${row.version}"` });
    }),

    // spec supplement: Integration active|paused → removed; keys, config, logs and webhook endpoint removed
    route('DELETE /integrations/{id}', async (ctx) => {
      assertManager(ctx);
      const { identity, webhooks } = commands(ctx.requestId);
      await change(ctx, ctx.params.id, async (em, row, undo) => {
        ctx.checkVersion(row.version);
        // keys first: a failure later leaves the record (and a retry finishes) but never a working key
        const revoked = await identity.revokeKeys({ integrationId: row.id });
        undo.push('note the revoked keys', () => noteRevoked(svc.orm.em.fork(), row.id, revoked, true));
        if (row.hasWebhookSecret) await webhooks.deleteEndpoints(row.id);
        const now = svc.clock.now();
        emit(em, 'integrations.integration.deleted', row, now, ctx.principal);
        await em.nativeDelete(Integration, { id: row.id });
      });
      return noContent();
    }),

    route('PUT /integrations/{id}/manifest', async (ctx) => {
      assertManager(ctx);
      const manifest = ctx.body;
      const errors = manifestErrors(manifest);
      if (errors.length > 0) throw new ValidationError(errors);
      const { identity, webhooks } = commands(ctx.requestId);
      const body = await change(ctx, ctx.params.id, async (em, row, undo) => {
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
      return ok(body, { ETag: `"${body.integration.version}"` });
    }),

    route('PATCH /integrations/{id}/config', async (ctx) => {
      assertManager(ctx);
      const dto = await ctx.em.transactional(async (em) => {
        const row = await findIntegration(em, ctx.params.id, true);
        ctx.checkVersion(row.version);
        const { values, errors } = applyConfigPatch(row.manifest.config, row.config, ctx.body);
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
      return ok(dto);
    }),

    // spec: Integration active → paused; its keys are refused, its webhooks wait (repeating it changes nothing)
    route('POST /integrations/{id}:pause', async (ctx) => {
      assertManager(ctx);
      const { identity, webhooks } = commands(ctx.requestId);
      const dto = await change(ctx, ctx.params.id, async (em, row, undo) => {
        ctx.checkVersion(row.version);
        const now = svc.clock.now();
        if (row.status === 'paused') return integrationDto(row, now);
        undo.push('resume the keys', () => identity.setPaused(row.id, false));
        await identity.setPaused(row.id, true);
        if (row.hasWebhookSecret) {
          undo.push('resume the webhooks', () => webhooks.setPaused(row.id, false));
          await webhooks.setPaused(row.id, true);
        }
        const before = integrationDto(row, now);
        row.status = 'paused';
        row.pausedAt = now;
        row.version += 1;
        row.updatedAt = now;
        emit(em, 'integrations.integration.paused', row, now, ctx.principal, changedFields(before, integrationDto(row, now)));
        return integrationDto(row, now);
      });
      return ok(dto);
    }),

    // spec: Integration paused → active; queued events are sent in order (the webhooks service's part)
    route('POST /integrations/{id}:resume', async (ctx) => {
      assertManager(ctx);
      const { identity, webhooks } = commands(ctx.requestId);
      const dto = await change(ctx, ctx.params.id, async (em, row, undo) => {
        ctx.checkVersion(row.version);
        const now = svc.clock.now();
        if (row.status === 'active') return integrationDto(row, now);
        undo.push('pause the keys again', () => identity.setPaused(row.id, true));
        await identity.setPaused(row.id, false);
        if (row.hasWebhookSecret) {
          undo.push('pause the webhooks again', () => webhooks.setPaused(row.id, true));
          await webhooks.setPaused(row.id, false);
        }
        const before = integrationDto(row, now);
        row.status = 'active';
        row.pausedAt = null;
        row.version += 1;
        row.updatedAt = now;
        emit(em, 'integrations.integration.resumed', row, now, ctx.principal, changedFields(before, integrationDto(row, now)));
        return integrationDto(row, now);
      });
      return ok(dto);
    }),

    // spec: Integration key current → new key issued; old keys keep working for graceMinutes
    route('POST /integrations/{id}:rotate-key', async (ctx) => {
      assertManager(ctx);
      const { identity } = commands(ctx.requestId);
      const body = await change(ctx, ctx.params.id, async (em, row, undo) => {
        let minted: MintedKey | null = null;
        undo.push('revoke the new key', async () => minted && identity.revokeKeys({ integrationId: row.id, keyId: minted.id }));
        minted = await identity.mintKey(row.id, row.manifest.scopes, `${row.manifest.name} key`);
        const revoked = await identity.revokeKeys({ integrationId: row.id, exceptKeyIds: [minted.id], graceMinutes: ctx.body.graceMinutes });
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
      return ok(body);
    }),
  ];
};
