import type { EntityManager } from '@bop/shared';
import { IntegrationKey } from './entities';
import type { MintedKey } from '../integrations/collaborators';

/** Our copy of a key identity minted (never its value). */
export function keyRow(em: EntityManager, minted: MintedKey, now: Date): IntegrationKey {
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
export async function noteRevoked(em: EntityManager, integrationId: string, revoked: Array<{ id: string; revokedAt: string }>, flush = false): Promise<void> {
  if (revoked.length === 0) return;
  const keys = await em.find(IntegrationKey, { integrationId, id: { $in: revoked.map((r) => r.id) } });
  const at = new Map(revoked.map((r) => [r.id, new Date(r.revokedAt)]));
  for (const key of keys) key.revokedAt = at.get(key.id)!;
  if (flush) await em.flush();
}

export const keysOf = (em: EntityManager, integrationId: string) => em.find(IntegrationKey, { integrationId }, { orderBy: { id: 'asc' } });
