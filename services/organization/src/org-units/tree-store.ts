import type { EntityManager } from '@bop/shared';
import { OrgUnit } from './entities';

/** Loads the whole org-unit tree (small: regions and areas) as a parent map. */
export async function loadParents(em: EntityManager): Promise<Map<string, string | null>> {
  // the query builder runs in em's transaction (when it has one): no second connection per request
  const rows = await em.createQueryBuilder(OrgUnit).select(['id', 'parentId']).execute<Array<Pick<OrgUnit, 'id' | 'parentId'>>>('all', true);
  return new Map(rows.map((r) => [r.id, r.parentId ?? null]));
}
