import { sqlQuery, type EntityManager, type FieldError } from '@bop/shared';

export interface StockLocation {
  id: string;
  timezone: string;
  cutoff: string;
}

/**
 * The location a write names, from inventory's replica of the organization, or the field error that
 * refuses it: unknown (or not replicated yet), or archived (a closed location keeps no stock).
 */
export async function writableLocation(em: EntityManager, locationId: string, path = 'locationId'): Promise<StockLocation | FieldError> {
  const [row] = await sqlQuery<{ id: string; timezone: string; business_day_cutoff: string; status: string }>(
    em,
    `select "id", "timezone", "business_day_cutoff", "status" from "inventory"."locations" where "id" = ?`,
    [locationId],
  );
  if (!row) return { path, message: `No location ${locationId}.` };
  if (row.status !== 'active') return { path, message: `Location ${locationId} is archived.` };
  return { id: row.id, timezone: row.timezone, cutoff: row.business_day_cutoff };
}

export const isFieldError = (v: StockLocation | FieldError): v is FieldError => 'path' in v;
