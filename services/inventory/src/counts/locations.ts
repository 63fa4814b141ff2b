import { sqlQuery, type EntityManager, type FieldError } from '@bop/shared';

export interface LocationRef {
  id: string;
  /** the body field naming it (`locationId`, `toLocationId` …) */
  path: string;
  /** what it would take, for the message: "counts", "transfers" */
  takes: string;
}

/**
 * Field errors for locations a new record names: unknown to inventory's replica of the organization
 * (or not replicated yet), or archived (supplement: an archived location takes no new counts or orders).
 */
export async function locationErrors(em: EntityManager, refs: LocationRef[]): Promise<FieldError[]> {
  const rows = await sqlQuery<{ id: string; status: string }>(
    em,
    `select "id", "status" from "inventory"."locations" where "id" = any(array(select jsonb_array_elements_text(?::jsonb)))`,
    [JSON.stringify([...new Set(refs.map((r) => r.id))])],
  );
  const status = new Map(rows.map((r) => [r.id, r.status]));
  const errors: FieldError[] = [];
  for (const r of refs) {
    const s = status.get(r.id);
    if (s === undefined) errors.push({ path: r.path, message: `No location ${r.id} (or it has not reached inventory yet).` });
    else if (s !== 'active') errors.push({ path: r.path, message: `Location ${r.id} is ${s}; it takes no new ${r.takes}.` });
  }
  return errors;
}
