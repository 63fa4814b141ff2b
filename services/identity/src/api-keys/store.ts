import { LockMode } from '@mikro-orm/core';
import { decodeCursor, newId, NotFound, toPage, ValidationError, type ListPage, type Work } from '@bop/shared';
import { ApiKey, IntegrationState } from './entities';
import { User } from '../users/entities';
import { randomToken, sha256 } from '../sessions/secrets';
import { apiKeyView, type ApiKeyView } from './dto';
import { emit } from '../users/events-store';
import { KEY_PREFIX } from '../sessions/store';

const PREFIX_LENGTH = 12;

function newKeyValue(): { key: string; prefix: string; keyHash: string } {
  const key = randomToken(KEY_PREFIX);
  return { key, prefix: key.slice(0, PREFIX_LENGTH), keyHash: sha256(key) };
}

function futureOrThrow(expiresAt: string | undefined | null, now: Date): Date | null {
  if (!expiresAt) return null;
  const date = new Date(expiresAt);
  if (date.getTime() <= now.getTime()) throw new ValidationError([{ path: 'expiresAt', message: 'Must lie in the future.' }]);
  return date;
}

function revokedObject(key: ApiKey) {
  return { id: key.id, kind: key.kind, userId: key.userId ?? null, integrationId: key.integrationId ?? null, prefix: key.prefix, revokedAt: key.revokedAt?.toISOString() ?? null };
}

/** POST /auth/api-keys: the value is returned once and only its hash is kept (spec: Authentication rule 2). */
export async function createPersonalKey(w: Work, input: { userId: string; name: string; expiresAt?: string | null }): Promise<ApiKeyView & { key: string }> {
  const expiresAt = futureOrThrow(input.expiresAt, w.now);
  const user = await w.em.findOne(User, { id: input.userId }, { lockMode: LockMode.PESSIMISTIC_READ });
  if (!user || user.status !== 'active') throw new NotFound('user', input.userId);
  const { key, prefix, keyHash } = newKeyValue();
  const row = w.em.create(ApiKey, {
    id: newId('apiKey'),
    kind: 'personal',
    userId: user.id,
    integrationId: null,
    name: input.name,
    prefix,
    keyHash,
    scopes: null,
    createdAt: w.now,
    expiresAt,
    lastUsedAt: null,
    revokedAt: null,
  });
  const view = apiKeyView(row);
  emit(w, 'api_key.created', { type: 'api_key', id: row.id }, view);
  return { ...view, key };
}

/** GET /auth/api-keys: a person's keys that are not revoked (never the value). */
export async function listPersonalKeys(w: Work, userId: string, page: { limit: number; cursor?: string }): Promise<ListPage<ApiKeyView>> {
  const after = decodeCursor(page.cursor);
  const rows = await w.em.find(
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
export async function revokePersonalKey(w: Work, keyId: string, caller: { userId: string | null; mayRevokeOthers: boolean }): Promise<void> {
  const key = await w.em.findOne(ApiKey, { id: keyId, kind: 'personal' }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!key || (key.userId !== caller.userId && !caller.mayRevokeOthers)) throw new NotFound('API key', keyId);
  if (key.revokedAt) return;
  key.revokedAt = w.now;
  emit(w, 'api_key.revoked', { type: 'api_key', id: key.id }, revokedObject(key));
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
export async function mintIntegrationKey(w: Work, input: { integrationId: string; scopes: string[]; expiresAt?: string; name?: string }): Promise<IntegrationKeyCreated> {
  const expiresAt = futureOrThrow(input.expiresAt, w.now);
  const { key, prefix, keyHash } = newKeyValue();
  const scopes = [...new Set(input.scopes)];
  const row = w.em.create(ApiKey, {
    id: newId('apiKey'),
    kind: 'integration',
    userId: null,
    integrationId: input.integrationId,
    name: input.name ?? 'integration key',
    prefix,
    keyHash,
    scopes,
    createdAt: w.now,
    expiresAt,
    lastUsedAt: null,
    revokedAt: null,
  });
  const created = { id: row.id, prefix, integrationId: input.integrationId, scopes, expiresAt: expiresAt?.toISOString() ?? null };
  emit(w, 'api_key.created', { type: 'api_key', id: row.id }, { ...created, kind: 'integration' });
  return { ...created, key };
}

/**
 * POST /internal/integration-keys:revoke: one key or all of an integration's keys (but `exceptKeyIds`),
 * refused from now + `graceMinutes` (spec: rotated keys keep working for graceMinutes).
 */
export async function revokeIntegrationKeys(
  w: Work,
  input: { integrationId: string; keyId?: string; exceptKeyIds?: string[]; graceMinutes?: number },
): Promise<{ revoked: Array<{ id: string; revokedAt: string }> }> {
  const effective = new Date(w.now.getTime() + (input.graceMinutes ?? 0) * 60_000);
  const keys = await w.em.find(
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
    emit(w, 'api_key.revoked', { type: 'api_key', id: key.id }, revokedObject(key));
  }
  return { revoked };
}

/** POST /internal/integrations/{id}:pause|:resume (spec: a paused integration's keys are refused). */
export async function setIntegrationPaused(w: Work, integrationId: string, paused: boolean): Promise<{ integrationId: string; paused: boolean }> {
  await w.em.createQueryBuilder(IntegrationState).insert({ integrationId, paused: false, updatedAt: w.now }).onConflict('integrationId').ignore().execute();
  const state = await w.em.findOneOrFail(IntegrationState, { integrationId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (state.paused === paused) return { integrationId, paused };
  state.paused = paused;
  state.updatedAt = w.now;
  emit(w, paused ? 'integration.paused' : 'integration.resumed', { type: 'integration', id: integrationId }, { integrationId, paused });
  return { integrationId, paused };
}
