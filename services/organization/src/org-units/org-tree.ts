/** Pure rules of the org-unit tree (regions, areas, …) and of reach over it. No I/O. */

export type ParentMap = ReadonlyMap<string, string | null>;

/** Ancestors of a unit from the root down to its parent. */
export function ancestorsOf(parents: ParentMap, id: string): string[] {
  const path: string[] = [];
  const seen = new Set<string>([id]);
  let current = parents.get(id) ?? null;
  while (current && !seen.has(current)) {
    path.unshift(current);
    seen.add(current);
    current = parents.get(current) ?? null;
  }
  return path;
}

/** The unit and every unit below it. */
export function subtreeOf(parents: ParentMap, roots: Iterable<string>): Set<string> {
  const children = new Map<string, string[]>();
  for (const [id, parent] of parents) {
    if (!parent) continue;
    const list = children.get(parent) ?? [];
    list.push(id);
    children.set(parent, list);
  }
  const out = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (out.has(id)) continue;
    out.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return out;
}

/** Moving `id` under `newParentId` would make it its own ancestor. */
export function wouldCreateCycle(parents: ParentMap, id: string, newParentId: string | null): boolean {
  if (!newParentId) return false;
  if (newParentId === id) return true;
  return ancestorsOf(parents, newParentId).includes(id);
}

/** The org units a location belongs to, nearest first (its own unit, then the ancestors). */
export function unitChainOfLocation(parents: ParentMap, orgUnitId: string | null): string[] {
  if (!orgUnitId) return [];
  return [orgUnitId, ...ancestorsOf(parents, orgUnitId).reverse()];
}
