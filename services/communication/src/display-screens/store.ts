import type { z } from 'zod';
import { LockMode } from '@mikro-orm/core';
import { DisplayLayout as DisplayLayoutSchema, type DisplayScreenCreate, type DisplayScreenListQuery } from '@bop/contracts';
import { Conflict, ValidationError, NotFound, assertLocationInReach, actorOf, findPage, locationFilter, mapPage, newId, writableLocations, type Work } from '@bop/shared';
import { DisplayPairing, DisplayScreen, type DisplayLayout } from './entities';
import { displayConfigDto, displayScreenDto } from './dto';
import { hashOf, newPairingCode, newSecret, normalizePairingCode } from './pairing';

/** Every metric, the leaderboard and announcements, 15 s rotation. */
export const defaultLayout = (): DisplayLayout => DisplayLayoutSchema.parse({});

/**
 * The internal event (team displays) and its public twin (the project's own type, issue 41 item 3:
 * `display_screen.paired`, `.unpaired`, `.configured`), data.object the screen as `GET /display-screens` lists it.
 */
const screenEvent = (w: Work, change: 'paired' | 'unpaired' | 'configured', s: DisplayScreen) => {
  const object = displayScreenDto(s);
  for (const type of [`communication.display_screen.${change}`, `display_screen.${change}`]) w.emit({ type, aggregateType: 'display_screen', aggregateId: s.id, locationId: s.locationId, object });
};

/**
 * `POST /display-screens`: pairs the screen showing this code (not expired, not used) with a location
 * the caller reaches. The screen picks up its screen token with its pairing secret (claimPairing).
 */
export async function pairScreen(w: Work, body: z.output<typeof DisplayScreenCreate>) {
  assertLocationInReach(w.reach(), body.locationId);
  const errors: Array<{ path: string; message: string }> = [];
  const code = normalizePairingCode(body.pairingCode);
  const pairing = code ? await w.em.findOne(DisplayPairing, { codeHash: hashOf(code) }, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
  if (!pairing || pairing.screenId !== null || pairing.expiresAt.getTime() <= w.now.getTime()) {
    errors.push({ path: 'pairingCode', message: 'No screen shows this pairing code: codes last 10 minutes and pair one screen; open /display/ on the screen for a new one.' });
  }
  const located = await writableLocations(w, [{ id: body.locationId, path: 'locationId', takes: 'display screens' }]);
  errors.push(...located.errors);
  if (errors.length > 0) throw new ValidationError(errors);
  const screen = w.em.create(DisplayScreen, {
    id: newId('displayScreen'),
    name: body.name ?? null,
    locationId: body.locationId,
    status: 'paired',
    config: body.config ?? defaultLayout(),
    tokenHash: null,
    tokenIssuedAt: null,
    pairedAt: w.now,
    pairedBy: actorOf(w.actor),
    lastSeenAt: null,
    archivedAt: null,
    version: 1,
    createdAt: w.now,
    updatedAt: w.now,
  });
  pairing!.screenId = screen.id;
  await w.em.flush();
  screenEvent(w, 'paired', screen);
  return displayScreenDto(screen);
}

/** `GET /display-screens`: paired screens (or `status`), by location, within reach. */
export async function listScreens(w: Work, query: z.output<typeof DisplayScreenListQuery>) {
  const inLocations = locationFilter(w.reach(), query.locationId);
  return mapPage(
    await findPage(w.em, DisplayScreen, [inLocations && { locationId: inLocations }, { status: query.status ?? 'paired' }], { limit: query.limit, cursor: query.cursor, updatedSince: query.updatedSince }),
    displayScreenDto,
  );
}

async function screenInReach(w: Work, id: string, lock = false): Promise<DisplayScreen> {
  const screen = await w.em.findOne(DisplayScreen, { id }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!screen) throw new NotFound('display screen', id);
  assertLocationInReach(w.reach(), screen.locationId);
  return screen;
}

/** `DELETE /display-screens/{id}`: unpaired and archived; its screen token stops working at once and its open streams close. */
export async function unpairScreen(w: Work, id: string) {
  const screen = await screenInReach(w, id, true);
  w.checkVersion(screen.version);
  if (screen.status === 'archived') return displayScreenDto(screen);
  Object.assign(screen, { status: 'archived', tokenHash: null, archivedAt: w.now, updatedAt: w.now, version: screen.version + 1 });
  await w.em.flush();
  screenEvent(w, 'unpaired', screen);
  return displayScreenDto(screen);
}

export async function getScreenConfig(w: Work, id: string) {
  return displayConfigDto(await screenInReach(w, id));
}

/** `PUT /display-screens/{id}/config`: the layout replaced (`If-Match` honoured); an unpaired screen keeps its last one (409). */
export async function putScreenConfig(w: Work, id: string, layout: DisplayLayout) {
  const screen = await screenInReach(w, id, true);
  w.checkVersion(screen.version);
  if (screen.status === 'archived') throw new Conflict(`Display screen ${id} is unpaired; pair the screen again.`);
  Object.assign(screen, { config: layout, updatedAt: w.now, version: screen.version + 1 });
  await w.em.flush();
  screenEvent(w, 'configured', screen);
  return displayConfigDto(screen);
}

/**
 * A screen asks for a pairing code: the code and a pairing secret, both kept hashed, valid `ttlSeconds`.
 * Pairings that expired a day ago and were never used are dropped on the way.
 */
export async function startPairing(w: Work, ttlSeconds: number) {
  await w.em.nativeDelete(DisplayPairing, { screenId: null, expiresAt: { $lt: new Date(w.now.getTime() - 86_400_000) } });
  const code = newPairingCode();
  const secret = newSecret('dps');
  const expiresAt = new Date(w.now.getTime() + ttlSeconds * 1000);
  w.em.create(DisplayPairing, { id: newId('displayPairing'), codeHash: hashOf(normalizePairingCode(code)!), secretHash: hashOf(secret), expiresAt, screenId: null, claimedAt: null, createdAt: w.now });
  await w.em.flush();
  return { code, secret, expiresAt: expiresAt.toISOString(), pollSeconds: 2 };
}

/**
 * The screen polls with its pairing secret: `waiting` until a manager pairs it, then (once) its screen
 * token, of which only the hash is kept; `expired` when the code ran out unpaired, the screen was
 * unpaired before it picked up its token, or the token was already handed out.
 */
export async function claimPairing(w: Work, secret: string) {
  const pairing = await w.em.findOne(DisplayPairing, { secretHash: hashOf(secret) }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!pairing || pairing.claimedAt !== null) return { status: 'expired' as const };
  if (pairing.screenId === null) return pairing.expiresAt.getTime() <= w.now.getTime() ? { status: 'expired' as const } : { status: 'waiting' as const, expiresAt: pairing.expiresAt.toISOString() };
  const screen = await w.em.findOne(DisplayScreen, { id: pairing.screenId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!screen || screen.status !== 'paired') return { status: 'expired' as const };
  const token = newSecret('dst');
  pairing.claimedAt = w.now;
  Object.assign(screen, { tokenHash: hashOf(token), tokenIssuedAt: w.now });
  await w.em.flush();
  return { status: 'paired' as const, token, screenId: screen.id, locationId: screen.locationId };
}

/** The paired screen a screen token belongs to; null when the token is unknown or revoked. */
export async function screenOfToken(w: Work, token: string | undefined): Promise<DisplayScreen | null> {
  if (!token || token.length > 200) return null;
  return w.em.findOne(DisplayScreen, { tokenHash: hashOf(token), status: 'paired' });
}

/** The screen, while still paired with this token hash. */
export async function pairedScreen(w: Work, screenId: string, tokenHash: string): Promise<DisplayScreen | null> {
  return w.em.findOne(DisplayScreen, { id: screenId, tokenHash, status: 'paired' });
}

/** Which of these screens still hold these token hashes (the streams' periodic re-check). */
export async function screensStillPaired(w: Work, tokenHashes: string[]): Promise<Set<string>> {
  if (tokenHashes.length === 0) return new Set();
  const rows = await w.em.find(DisplayScreen, { tokenHash: { $in: tokenHashes }, status: 'paired' }, { fields: ['id', 'tokenHash'] });
  return new Set(rows.map((r) => r.tokenHash!));
}

/** The screen read its data now (GET routes hold no transaction: a single update of its own). */
export async function markSeen(w: Work, screenId: string) {
  await w.em.nativeUpdate(DisplayScreen, { id: screenId }, { lastSeenAt: w.now });
}
