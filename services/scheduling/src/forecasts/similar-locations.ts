/**
 * Cold start: a location with fewer than 8 weeks of its own history is forecast from the company's
 * locations most like it over the days it has, each scaled to its level (its own weekday levels and
 * profiles, `own_profile`, when no location with 8 weeks shares a day with it); and the confidence of
 * each method (`full`, `own_profile`, `similar_locations`) as the error measured for it.
 *
 * Why peers up to 8 weeks: on bench:forecast-cold (20 generated locations, 4 December weeks held
 * out, WAPE over 15-minute intervals) similar locations scored 37.6 / 36.0 / 35.9 / 35.7 % from 1 /
 * 2 / 4 / 6 weeks of own history, its own profile 50.5 / 43.8 / 41.5 / 40.4 %, and the full model on
 * two years 35.8 %: peers carry the yearly season (the holiday ramp, Christmas) a few weeks cannot.
 *
 * Similarity over the days it has (its usable days on which a peer was open too): the spread (standard
 * deviation) of the log ratio of the day totals, which is 0 when the peer moves day by day as it does
 * (same weekday pattern, same weather), plus the mean L1 distance of the hourly shares of those days
 * (0..2: a café's morning against a restaurant's evening). Only peers with 8 weeks of history count;
 * the 3 nearest are used, weighted 1 / (distance + 0.05). Each peer's normal day (its own full fit)
 * is scaled by Σ own totals / Σ peer totals over the shared days; the profile of a weekday is the
 * weighted mean of the peers open on it. A weekday the location has not yet seen is closed when most
 * of the weight is closed on it. A special day takes its given percent, else the peers' learned
 * effects (weighted geometric mean), else the default.
 */
import type { IANAZone } from 'luxon';
import { IANAZone as Zone } from 'luxon';
import { localDayNumber, SLOTS, weekdayOf } from './calendar';
import { foldHistory, usable, type DemandPoint, type History } from './history';
import { ForecastInputError } from './input-error';
import { FULL_WEEKS, fitNormal, historySpan, specialEffectAt, type NormalModel } from './normal';
import { indexSpecialDays, type SpecialDay } from './special-days';
import type { SpecialEffect } from './special-effects';

export interface PeerHistory {
  locationId: string;
  /** IANA zone of the peer */
  zone: string;
  history: DemandPoint[];
}

export interface SimilarLocationUsed {
  locationId: string;
  /** share of the forecast, 0..1 */
  weight: number;
  /** this location's level over the peer's on the days both have */
  scale: number;
}

export type ForecastMethod = 'full' | 'own_profile' | 'similar_locations';

/**
 * How sure a forecast is: `expectedErrorPercent` is the WAPE over 15-minute intervals this method
 * had with this much history in bench/forecast-cold.ts (4 weeks ahead, 20 generated locations).
 */
export interface ForecastConfidence {
  level: 'high' | 'medium' | 'low';
  expectedErrorPercent: number;
}

const PEERS_USED = 3;
const DISTANCE_FLOOR = 0.05;

/**
 * WAPE (%) by method and days of history (from 1, 2, 4 and 6 weeks; under a week counts as one),
 * measured by `npm run bench:forecast-cold` (seed 1; the data's noise floor is 31.9 %).
 */
const MEASURED: Record<ForecastMethod, Array<[minDays: number, wape: number]>> = {
  full: [[0, 35.8]],
  own_profile: [[0, 50.5], [14, 43.8], [28, 41.5], [42, 40.4]],
  similar_locations: [[0, 37.6], [14, 36.0], [28, 35.9], [42, 35.7]],
};

/** `high` for the full method; `medium` for similar locations from 2 weeks and the own profile from 4; else `low`. */
export function confidenceOf(method: ForecastMethod, days: number): ForecastConfidence {
  let wape = MEASURED[method][0][1];
  for (const [minDays, w] of MEASURED[method]) if (days >= minDays) wape = w;
  const level = method === 'full' ? 'high' : days >= (method === 'similar_locations' ? 14 : 28) ? 'medium' : 'low';
  return { level, expectedErrorPercent: wape };
}

export interface PeerScore {
  locationId: string;
  distance: number;
  scale: number;
  sharedDays: number;
}

/** How close a peer's days are to the location's own (see the top of this file); null without a shared day. */
function compare(own: History, peer: History): Omit<PeerScore, 'locationId'> | null {
  const logs: number[] = [];
  let sumOwn = 0;
  let sumPeer = 0;
  let l1 = 0;
  let shaped = 0;
  for (let d = 0; d < own.days; d++) {
    if (!usable(own, d)) continue;
    const e = own.cal.first + d - peer.cal.first;
    if (e < 0 || e >= peer.days || !usable(peer, e)) continue;
    logs.push(Math.log(own.totals[d] / peer.totals[e]));
    sumOwn += own.totals[d];
    sumPeer += peer.totals[e];
    if (!own.normalLength[d] || !peer.normalLength[e]) continue;
    const a = new Float64Array(24);
    const b = new Float64Array(24);
    for (let s = 0; s < SLOTS; s++) {
      a[s >> 2] += own.values[d * SLOTS + s] / own.totals[d];
      b[s >> 2] += peer.values[e * SLOTS + s] / peer.totals[e];
    }
    l1 += a.reduce((acc, v, hr) => acc + Math.abs(v - b[hr]), 0);
    shaped++;
  }
  if (logs.length === 0) return null;
  const mean = logs.reduce((x, y) => x + y, 0) / logs.length;
  const spread = logs.length > 1 ? Math.sqrt(logs.reduce((acc, v) => acc + (v - mean) ** 2, 0) / (logs.length - 1)) : 0;
  return { distance: spread + (shaped > 0 ? l1 / shaped : 1), scale: sumOwn / sumPeer, sharedDays: logs.length };
}

export interface PeerContext {
  /** first target day number */
  from: number;
  /** the clock (ms), when given */
  asOf?: number;
  specialDays: SpecialDay[];
}

function peerTrainEnd(zone: IANAZone, ctx: PeerContext): number {
  return ctx.asOf === undefined ? ctx.from - 1 : Math.min(ctx.from - 1, localDayNumber(ctx.asOf, zone) - 1);
}

function zoneOf(peer: PeerHistory): IANAZone {
  const zone = Zone.create(peer.zone);
  if (!zone.isValid) throw new ForecastInputError(`peers.zone: unknown time zone ${JSON.stringify(peer.zone)}`);
  return zone;
}

/**
 * The peers nearest to the location over the days it has, nearest first (peers sharing no day are
 * left out). Their histories need only cover those days: the caller then reads the long history
 * of the nearest few.
 */
export function rankPeers(own: History, peers: PeerHistory[], ctx: PeerContext): PeerScore[] {
  const out: PeerScore[] = [];
  for (const peer of peers) {
    const zone = zoneOf(peer);
    const h = foldHistory(peer.history, zone, peerTrainEnd(zone, ctx), indexSpecialDays(ctx.specialDays, peer.locationId));
    const c = h && compare(own, h);
    if (c) out.push({ locationId: peer.locationId, ...c });
  }
  return out.sort((a, b) => a.distance - b.distance || a.locationId.localeCompare(b.locationId));
}

export interface SimilarModel {
  baseline: (n: number) => number;
  profiles: Float64Array[];
  effect: (special: SpecialDay, n: number) => SpecialEffect;
  used: SimilarLocationUsed[];
}

/** The location's normal days from its nearest peers (null when no peer with 8 weeks shares a day with it). */
export function fromSimilarLocations(own: NormalModel, peers: PeerHistory[], targets: number[], ctx: PeerContext): SimilarModel | null {
  const fitted: Array<{ id: string; model: NormalModel; trainEnd: number; specials: ReturnType<typeof indexSpecialDays>; distance: number; scale: number }> = [];
  for (const peer of peers) {
    const zone = zoneOf(peer);
    const trainEnd = peerTrainEnd(zone, ctx);
    const specials = indexSpecialDays(ctx.specialDays, peer.locationId);
    const h = foldHistory(peer.history, zone, trainEnd, specials);
    if (!h || historySpan(h).weeks < FULL_WEEKS) continue;
    const c = compare(own.h, h);
    const model = c && fitNormal(h, targets, trainEnd);
    if (c && model) fitted.push({ id: peer.locationId, model, trainEnd, specials, distance: c.distance, scale: c.scale });
  }
  fitted.sort((a, b) => a.distance - b.distance || a.id.localeCompare(b.id));
  const chosen = fitted.slice(0, PEERS_USED);
  if (chosen.length === 0) return null;
  const raw = chosen.map((c) => 1 / (c.distance + DISTANCE_FLOOR));
  const sum = raw.reduce((a, b) => a + b, 0);
  const weights = raw.map((r) => r / sum);

  // weekdays the location itself has seen open
  const seenOpen = new Array(7).fill(false);
  for (let d = 0; d < own.h.days; d++) if (own.h.open[d]) seenOpen[weekdayOf(own.h.cal.first + d)] = true;
  const openWeights = Array.from({ length: 7 }, (_, w) => chosen.map((c, i) => (c.model.closed[w] ? 0 : weights[i])));
  const closed = openWeights.map((ws, w) => own.closed[w] || (!seenOpen[w] && ws.reduce((a, b) => a + b, 0) < 0.5));
  const weightsOn = (w: number) => {
    const ws = openWeights[w];
    const total = ws.reduce((a, b) => a + b, 0);
    return total > 0 ? ws.map((x) => x / total) : weights;
  };
  const profiles = Array.from({ length: 7 }, (_, w) => {
    const ws = weightsOn(w);
    const profile = new Float64Array(SLOTS);
    chosen.forEach((c, i) => c.model.profiles[w].forEach((v, s) => (profile[s] += ws[i] * v)));
    return profile;
  });
  const baseline = (n: number) => {
    const w = weekdayOf(n);
    if (closed[w]) return 0;
    const ws = weightsOn(w);
    return chosen.reduce((acc, c, i) => acc + ws[i] * c.scale * c.model.baseline(n), 0);
  };
  const effect = (special: SpecialDay, n: number): SpecialEffect => {
    const effects = chosen.map((c) => specialEffectAt(c.model, special, n, c.trainEnd, c.specials));
    const first = effects[0];
    if (first.source === 'closed' || first.source === 'given') return { ...first, hourly: first.hourly };
    const learned = effects.map((e, i) => ({ e, w: weights[i] })).filter((x) => x.e.source === 'learned');
    if (learned.length === 0) return first;
    const total = learned.reduce((a, x) => a + x.w, 0);
    const factor = Math.exp(learned.reduce((a, x) => a + (x.w / total) * Math.log(Math.max(x.e.factor, 1e-6)), 0));
    return { factor, source: 'learned', hourly: learned[0].e.hourly };
  };
  return { baseline, profiles, effect, used: chosen.map((c, i) => ({ locationId: c.id, weight: weights[i], scale: c.scale })) };
}
