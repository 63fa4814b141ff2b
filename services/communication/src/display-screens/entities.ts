import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

type Actor = { type: 'user' | 'integration' | 'system' | 'employee'; id: string | null };
export interface DisplayLayout {
  metrics: string[];
  leaderboard: { enabled: boolean; periodDays: number; size: number };
  announcements: { enabled: boolean; limit: number };
  rotationSeconds: number;
}

/** A code an unpaired screen shows (kept hashed), with the hash of the secret the screen polls with. */
export const DisplayPairing = defineEntity({
  name: 'DisplayPairing',
  tableName: 'display_pairings',
  properties: {
    id: p.string().primary(),
    codeHash: p.string(),
    secretHash: p.string(),
    expiresAt: p.datetime(),
    /** the screen a manager paired with this code */
    screenId: p.string().nullable(),
    /** when the screen picked up its token (once) */
    claimedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
});
export type DisplayPairing = InferEntity<typeof DisplayPairing>;

/** A screen paired to a location: its layout and the hash of the token it reads that location's display data with. */
export const DisplayScreen = defineEntity({
  name: 'DisplayScreen',
  tableName: 'display_screens',
  properties: {
    id: p.string().primary(),
    name: p.string().nullable(),
    locationId: p.string(),
    status: p.string().$type<'paired' | 'archived'>(),
    config: p.json<DisplayLayout>(),
    /** sha-256 of the screen token; null until the screen picks it up, and again once unpaired (revoked) */
    tokenHash: p.string().nullable(),
    tokenIssuedAt: p.datetime().nullable(),
    pairedAt: p.datetime(),
    pairedBy: p.json<Actor>(),
    lastSeenAt: p.datetime().nullable(),
    archivedAt: p.datetime().nullable(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type DisplayScreen = InferEntity<typeof DisplayScreen>;
