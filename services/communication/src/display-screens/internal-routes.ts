import { z } from 'zod';
import { internalRoute, Unauthorized, type InternalRouteDef, type RouteContext, type ServiceRuntime } from '@bop/shared';
import type { CommunicationConfig } from '../config';
import { claimPairing, markSeen, screenOfToken, startPairing } from './store';
import { displaySnapshot } from './snapshot-store';
import { displayStreams } from './stream-worker';

/** The header the gateway passes a screen's token in (the display page sends it as `X-Screen-Token`). */
export const SCREEN_TOKEN_HEADER = 'x-screen-token';

const ClaimRequest = z.strictObject({ secret: z.string().min(1).max(200) });

async function pairedScreen(ctx: RouteContext) {
  const token = ctx.headers[SCREEN_TOKEN_HEADER];
  const screen = await screenOfToken(ctx, typeof token === 'string' ? token : undefined);
  if (!screen) throw new Unauthorized('The screen token is unknown or revoked: pair the screen again.');
  await markSeen(ctx, screen.id);
  return screen;
}

/**
 * The team-display page's calls, which the gateway passes on from `/display/api/…` (outside the
 * catalogue; no person or key signs in): a pairing code, its pick-up, and — with the screen token —
 * the snapshot and the live stream of the screen's own location.
 */
export const displayInternalRoutes = (svc: ServiceRuntime<CommunicationConfig>): InternalRouteDef[] => [
  internalRoute('POST /internal/display/pairings', {}, async (ctx) => ({ status: 201, body: await startPairing(ctx, svc.config.COMMUNICATION_DISPLAY_PAIRING_TTL_SECONDS) })),

  internalRoute('POST /internal/display/pairings/claim', { body: ClaimRequest }, async (ctx) => ({ body: await claimPairing(ctx, ctx.body.secret) })),

  internalRoute('GET /internal/display/snapshot', {}, async (ctx) => ({ body: await displaySnapshot(ctx, await pairedScreen(ctx)) })),

  internalRoute('GET /internal/display/stream', {}, async (ctx) => {
    const screen = await pairedScreen(ctx);
    const stream = await displayStreams(svc).openStream(ctx, screen);
    return { status: 200, stream, headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' } };
  }),
];
