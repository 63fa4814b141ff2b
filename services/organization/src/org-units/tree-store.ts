import type { EntityManager } from '@bop/shared';


/** Loads the whole org-unit tree (small: regions and areas) as a parent map. */
export async function loadParents(em: EntityManager): Promise<Map<string, string | null>> {
  // em.execute runs in em's transaction (when it has one): no second connection per request
  const rows: Array<{ id: string; parent_id: string | null }> = await em.execute('select "id", "parent_id" from "organization"."org_units"');
  return new Map(rows.map((r) => [r.id, r.parent_id]));
}
