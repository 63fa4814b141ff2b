import type { Work } from '@bop/shared';
import { IntegrationKey } from './entities';
import type { MintedKey } from '../integrations/collaborators';

/** Our copy of a key identity minted (never its value). */
export function keyRow(w: Work, minted: MintedKey): IntegrationKey {
  return w.em.create(IntegrationKey, {
    id: minted.id,
    integrationId: minted.integrationId,
    prefix: minted.prefix,
    scopes: minted.scopes,
    createdAt: w.now,
    expiresAt: minted.expiresAt ? new Date(minted.expiresAt) : null,
    revokedAt: null,
  });
}

/** Writes identity's revocations onto our copies of the keys (flushed with the unit). */
export async function noteRevoked(w: Work, integrationId: string, revoked: Array<{ id: string; revokedAt: string }>): Promise<void> {
  if (revoked.length === 0) return;
  const keys = await w.em.find(IntegrationKey, { integrationId, id: { $in: revoked.map((r) => r.id) } });
  const at = new Map(revoked.map((r) => [r.id, new Date(r.revokedAt)]));
  for (const key of keys) key.revokedAt = at.get(key.id)!;
}

export const keysOf = (w: Work, integrationId: string) => w.em.find(IntegrationKey, { integrationId }, { orderBy: { id: 'asc' } });
