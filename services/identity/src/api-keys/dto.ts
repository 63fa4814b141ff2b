import type { z } from 'zod';
import type { ApiKeyCreated } from '@bop/contracts';
import type { ApiKey } from './entities';

export type ApiKeyView = Omit<z.output<typeof ApiKeyCreated>, 'key'>;

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function apiKeyView(key: ApiKey): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    userId: key.userId ?? '',
    createdAt: iso(key.createdAt),
    expiresAt: isoOrNull(key.expiresAt),
    lastUsedAt: isoOrNull(key.lastUsedAt),
  };
}
