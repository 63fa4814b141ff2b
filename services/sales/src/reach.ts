import { OutOfReach, type ReachSet } from '@bop/shared';

/**
 * The location ids a `sales.*` reach covers; null = all. Org-unit reach arrives resolved to its
 * locations by the kit (from sales' org-unit and location replicas, see consumers/org-units.ts).
 * Every sales list and get filters through this.
 */
export function reachableLocationIds(reach: ReachSet): string[] | null {
  if (reach.everyone) return null;
  // never guess: unresolved org units (a service without the replica) are refused
  if (reach.orgUnitIds.size > 0 && !reach.orgUnitsResolved) throw new OutOfReach('This reach by org unit could not be resolved to locations.');
  return [...reach.locationIds];
}

/** Refuses (403 out_of_reach) a location the reach does not cover. */
export function assertLocationInReach(reach: ReachSet, locationId: string): void {
  const ids = reachableLocationIds(reach);
  if (ids && !ids.includes(locationId)) throw new OutOfReach(`Your permission does not reach location ${locationId}.`);
}
