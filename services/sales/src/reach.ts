import { OutOfReach, type ReachSet } from '@bop/shared';

/**
 * The location ids a `sales.*` reach covers; null = all. Org-unit reach needs an org-unit replica
 * (org_unit.* events) that sales does not keep yet, so it is refused rather than guessed.
 * Every sales list and get filters through this.
 */
export function reachableLocationIds(reach: ReachSet): string[] | null {
  if (reach.everyone) return null;
  if (reach.orgUnitIds.size > 0) throw new OutOfReach('Sales does not yet resolve org-unit reach; ask for the permission at location reach or Everyone.');
  return [...reach.locationIds];
}

/** Refuses (403 out_of_reach) a location the reach does not cover. */
export function assertLocationInReach(reach: ReachSet, locationId: string): void {
  const ids = reachableLocationIds(reach);
  if (ids && !ids.includes(locationId)) throw new OutOfReach(`Your permission does not reach location ${locationId}.`);
}
