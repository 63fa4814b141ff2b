/**
 * Cold start, the store's side: a location with fewer than 8 weeks of its own history is forecast from
 * the company's locations most like it (the model's similar-locations.ts). Their recent days are read
 * first, for the days it has, to rank them; then the long history of the nearest few.
 */
import { DateTime } from 'luxon';
import { findPlain, type Work } from '@bop/shared';
import { SIMILAR_UNTIL_DAYS, rankSimilar, daysOfHistory, type DemandPoint, type ForecastInput, type PeerHistory } from './model';
import { SchedulingLocation } from '../locations/entities';

/** Peers read in full after the ranking: the model keeps the 3 nearest with 8 weeks of history. */
const PEERS_READ = 6;
/** The long history of a peer: two years and a week, as the location's own (yearly season). */
const PEER_HISTORY_DAYS = 735;
const DAY_MS = 86_400_000;

export type HistoryLoader = (locationId: string, from: Date, to: Date) => Promise<DemandPoint[]>;

function historyEnd(input: ForecastInput, zone: string): number {
  const first = DateTime.fromISO(input.from, { zone }).startOf('day').toMillis();
  return input.asOf ? Math.min(first, Date.parse(input.asOf)) : first;
}

/** Whether the location has under 8 weeks of history (but some): read by the first point (histories come in order of time), folded only when near. */
export function needsPeers(input: ForecastInput): boolean {
  if (input.history.length === 0) return false;
  const first = Date.parse(input.history[0].start);
  if (historyEnd(input, input.zone) - first > (SIMILAR_UNTIL_DAYS + 1) * DAY_MS) return false;
  const days = daysOfHistory(input);
  return days > 0 && days < SIMILAR_UNTIL_DAYS;
}

/** The histories of the company's locations nearest to this one over the days it has (see the top of this file). */
export async function similarPeers(w: Work, input: ForecastInput, load: HistoryLoader): Promise<PeerHistory[]> {
  const others = await findPlain(w.em, SchedulingLocation, { id: { $ne: input.locationId! }, status: { $ne: 'archived' } });
  const end = historyEnd(input, input.zone);
  const firstOwn = Date.parse(input.history[0].start) - DAY_MS;
  const recent: PeerHistory[] = [];
  for (const o of others) recent.push({ locationId: o.id, zone: o.timezone, history: await load(o.id, new Date(firstOwn), new Date(end)) });
  const nearest = rankSimilar(input, recent).slice(0, PEERS_READ);
  const zoneOf = new Map(others.map((o) => [o.id, o.timezone]));
  const start = DateTime.fromISO(input.from, { zone: input.zone }).minus({ days: PEER_HISTORY_DAYS }).toJSDate();
  const peers: PeerHistory[] = [];
  for (const p of nearest) peers.push({ locationId: p.locationId, zone: zoneOf.get(p.locationId)!, history: await load(p.locationId, start, new Date(end)) });
  return peers;
}
