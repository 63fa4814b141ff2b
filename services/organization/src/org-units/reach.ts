import { OutOfReach, reachCoversLocation, type ReachSet } from '@bop/shared';
import { subtreeOf, unitChainOfLocation, type ParentMap } from './org-tree';

/** The filter that keeps only locations a reach covers; `null` = no filter (Everyone). */
export function locationReachFilter(reach: ReachSet, parents: ParentMap): { ids: string[]; orgUnitIds: string[] } | null {
  if (reach.everyone) return null;
  return { ids: [...reach.locationIds], orgUnitIds: [...subtreeOf(parents, reach.orgUnitIds)] };
}

export function assertLocationInReach(reach: ReachSet, parents: ParentMap, location: { id: string; orgUnitId?: string | null }): void {
  if (!reachCoversLocation(reach, location.id, unitChainOfLocation(parents, location.orgUnitId ?? null))) {
    throw new OutOfReach(`Your permission does not reach location ${location.id}.`);
  }
}

/** An org unit is reached when it is, or lies under, a unit of the reach. */
export function assertUnitInReach(reach: ReachSet, parents: ParentMap, unitId: string | null): void {
  if (reach.everyone) return;
  if (unitId && subtreeOf(parents, reach.orgUnitIds).has(unitId)) return;
  throw new OutOfReach(unitId ? `Your permission does not reach org unit ${unitId}.` : 'Only a permission at reach Everyone reaches company-wide records.');
}
