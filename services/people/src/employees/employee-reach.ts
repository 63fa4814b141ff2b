import type { ReachSet } from '@bop/shared';

/**
 * Whether a reach covers an employee: Everyone, or one of the employee's locations (home or further;
 * org units arrive resolved to their locations). Employee sets are not resolvable here and cover no one.
 */
export function reachCoversEmployee(reach: ReachSet, e: { homeLocationId: string; locationIds: readonly string[] }): boolean {
  if (reach.everyone) return true;
  if (reach.locationIds.has(e.homeLocationId)) return true;
  return e.locationIds.some((id) => reach.locationIds.has(id));
}
