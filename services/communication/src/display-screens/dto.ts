import type { DisplayScreen } from './entities';

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/** A display screen on the wire (never its token). */
export function displayScreenDto(s: DisplayScreen) {
  return {
    id: s.id,
    name: s.name ?? null,
    locationId: s.locationId,
    status: s.status,
    pairedAt: iso(s.pairedAt)!,
    pairedBy: s.pairedBy,
    tokenIssuedAt: iso(s.tokenIssuedAt),
    lastSeenAt: iso(s.lastSeenAt),
    archivedAt: iso(s.archivedAt),
    config: s.config,
    version: s.version,
    createdAt: iso(s.createdAt)!,
    updatedAt: iso(s.updatedAt)!,
  };
}

/** `GET/PUT /display-screens/{id}/config`. */
export function displayConfigDto(s: DisplayScreen) {
  return { screenId: s.id, ...s.config, version: s.version, updatedAt: iso(s.updatedAt)! };
}
