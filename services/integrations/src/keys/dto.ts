import type { IntegrationKey } from './entities';
import { keyStatus } from './key-status';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function keyDto(k: IntegrationKey, now: Date) {
  return {
    id: k.id,
    prefix: k.prefix,
    scopes: k.scopes,
    status: keyStatus({ revokedAt: k.revokedAt ?? null, expiresAt: k.expiresAt ?? null }, now),
    createdAt: k.createdAt.toISOString(),
    expiresAt: iso(k.expiresAt),
    revokedAt: iso(k.revokedAt),
  };
}
