import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { decodeCursor, newId, NotFound, toPage, ValidationError, type ListPage, now, nowMs } from '@bop/shared';
import { ApiKey, IntegrationState } from './entities';
import { User } from '../users/entities';
import { randomToken, sha256 } from '../sessions/secrets';
import { apiKeyView, type ApiKeyView } from './dto';
import { emit, type Actor } from '../users/events-store';
import { KEY_PREFIX } from '../sessions/store';

const PREFIX_LENGTH = 12;

function newKeyValue(): { key: string; prefix: string; keyHash: string } {
  const key = randomToken(KEY_PREFIX);
  return { key, prefix: key.slice(0, PREFIX_LENGTH), keyHash: sha256(key) };
}

function futureOrThrow(expiresAt: string | undefined | null): Date | null {
  if (!expiresAt) return null;
  const date = new Date(expiresAt);
  if (date.getTime() <= nowMs()) throw new ValidationError([{ path: 'expiresAt', message: 'Must lie in the future.' }]);
  return date;
}

function revokedObject(key: ApiKey) {
  return { id: key.id, kind: key.kind, userId: key.userId ?? null, integrationId: key.integrationId ?? null, prefix: key.prefix, revokedAt: key.revokedAt?.toISOString() ?? null };
}

/** POST /auth/api-keys: the value is returned once and only its hash is kept (spec: Authentication rule 2). */
export async function createPersonalKey(
  em: EntityManager,
  input: { userId: string; name: string; expiresAt?: string | null },
  actor: Actor,
): Promise<ApiKeyView & { key: string }> {
  const expiresAt = futureOrThrow(input.expiresAt);
  return em.transactional(async (tem) => {
    const user = await tem.findOne(User, { id: input.userId }, { lockMode: LockMode.PESSIMISTIC_READ });
    if (!user || user.status !== 'active') throw new NotFound('user', input.userId);
    const { key, prefix, keyHash } = newKeyValue();
    const row = tem.create(ApiKey, {
      id: newId('apiKey'),
      kind: 'personal',
      userId: user.id,
      integrationId: null,
      name: input.name,
      prefix,
      keyHash,
      scopes: null,
      createdAt: now(),
      expiresAt,
      lastUsedAt: null,
      revokedAt: null,
    });
    const view = apiKeyView(row);
    emit(tem, 'api_key.created', { type: 'api_key', id: row.id }, view, actor);
    return { ...view, key };
  });
}

/** GET /auth/api-keys: a person's keys that are not revoked (never the value). */
export async function listPersonalKeys(em: EntityManager, userId: string, page: { limit: number; cursor?: string }): Promise<ListPage<ApiKeyView>> {
  const after = decodeCursor(page.cursor);
  const rows = await em.find(
    ApiKey,
    { kind: 'personal', userId, revokedAt: null, ...(after ? { id: { $gt: after } } : {}) },
    { orderBy: { id: 'asc' }, limit: page.limit + 1 },
  );
  return toPage(rows, page.limit, apiKeyView);
}

/**
 * DELETE /auth/api-keys/{id}: the key then gets 401 `unauthorized`. `mayRevokeOthers` = api_keys.manage;
 * without it another person's key reads as not found.
 */
export async function revokePersonalKey(em: EntityManager, keyId: string, caller: { userId: string | null; mayRevokeOthers: boolean }, actor: Actor): Promise<void> {
  await em.transactional(async (tem) => {
    const key = await tem.findOne(ApiKey, { id: keyId, kind: 'personal' }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!key || (key.userId !== caller.userId && !caller.mayRevokeOthers)) throw new NotFound('API key', keyId);
    if (key.revokedAt) return;
    key.revokedAt = now();
    emit(tem, 'api_key.revoked', { type: 'api_key', id: key.id }, revokedObject(key), actor);
  });
}

export interface IntegrationKeyCreated {
  id: string;
  key: string;
  prefix: string;
  integrationId: string;
  scopes: string[];
  expiresAt: string | null;
}

/** POST /internal/integration-keys: an integration key with its manifest's scopes; value returned once. */
export async function mintIntegrationKey(
  em: EntityManager,
  input: { integrationId: string; scopes: string[]; expiresAt?: string; name?: string },
  actor: Actor,
): Promise<IntegrationKeyCreated> {
  const expiresAt = futureOrThrow(input.expiresAt);
  return em.transactional(async (tem) => {
    const { key, prefix, keyHash } = newKeyValue();
    const scopes = [...new Set(input.scopes)];
    const row = tem.create(ApiKey, {
      id: newId('apiKey'),
      kind: 'integration',
      userId: null,
      integrationId: input.integrationId,
      name: input.name ?? 'integration key',
      prefix,
      keyHash,
      scopes,
      createdAt: now(),
      expiresAt,
      lastUsedAt: null,
      revokedAt: null,
    });
    const created = { id: row.id, prefix, integrationId: input.integrationId, scopes, expiresAt: expiresAt?.toISOString() ?? null };
    emit(tem, 'api_key.created', { type: 'api_key', id: row.id }, { ...created, kind: 'integration' }, actor);
    return { ...created, key };
  });
}

/**
 * POST /internal/integration-keys:revoke: one key or all of an integration's keys (but `exceptKeyIds`),
 * refused from now + `graceMinutes` (spec: rotated keys keep working for graceMinutes).
 */
export async function revokeIntegrationKeys(
  em: EntityManager,
  input: { integrationId: string; keyId?: string; exceptKeyIds?: string[]; graceMinutes?: number },
  actor: Actor,
): Promise<{ revoked: Array<{ id: string; revokedAt: string }> }> {
  return em.transactional(async (tem) => {
    const effective = new Date(nowMs() + (input.graceMinutes ?? 0) * 60_000);
    const keys = await tem.find(
      ApiKey,
      { kind: 'integration', integrationId: input.integrationId, ...(input.keyId ? { id: input.keyId } : {}) },
      { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' } },
    );
    if (input.keyId && keys.length === 0) throw new NotFound('integration key', input.keyId);
    const except = new Set(input.exceptKeyIds ?? []);
    const revoked: Array<{ id: string; revokedAt: string }> = [];
    for (const key of keys) {
      if (except.has(key.id)) continue;
      // an earlier, sooner revocation stands
      if (key.revokedAt && key.revokedAt <= effective) continue;
      key.revokedAt = effective;
      revoked.push({ id: key.id, revokedAt: effective.toISOString() });
      emit(tem, 'api_key.revoked', { type: 'api_key', id: key.id }, revokedObject(key), actor);
    }
    return { revoked };
  });
}

/** POST /internal/integrations/{id}:pause|:resume (spec: a paused integration's keys are refused). */
export async function setIntegrationPaused(em: EntityManager, integrationId: string, paused: boolean, actor: Actor): Promise<{ integrationId: string; paused: boolean }> {
  return em.transactional(async (tem) => {
    await tem.createQueryBuilder(IntegrationState).insert({ integrationId, paused: false, updatedAt: now() }).onConflict('integrationId').ignore().execute();
    const state = await tem.findOneOrFail(IntegrationState, { integrationId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (state.paused === paused) return { integrationId, paused };
    state.paused = paused;
    state.updatedAt = now();
    emit(tem, paused ? 'integration.paused' : 'integration.resumed', { type: 'integration', id: integrationId }, { integrationId, paused }, actor);
    return { integrationId, paused };
  });
}

