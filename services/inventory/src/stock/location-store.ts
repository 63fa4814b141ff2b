import { resolveLocations, type Work, type FieldError } from '@bop/shared';

export interface StockLocation {
  id: string;
  timezone: string;
  cutoff: string;
}

/**
 * The location a write names, or the field error that refuses it: unknown, or archived (a closed
 * location keeps no stock). Organization's current state decides (the kit reads it through, so a
 * location just created or archived there is honoured at once), inventory's replica when organization
 * cannot be reached.
 */
export async function writableLocation(w: Work, locationId: string, path = 'locationId'): Promise<StockLocation | FieldError> {
  const row = (await resolveLocations(w, [{ locationId }], { current: true })).byId.get(locationId);
  if (!row) return { path, message: `No location ${locationId}.` };
  if (row.status !== 'active') return { path, message: `Location ${locationId} is archived.` };
  return { id: row.id, timezone: row.timezone, cutoff: row.businessDayCutoff };
}

export const isFieldError = (v: StockLocation | FieldError): v is FieldError => 'path' in v;
