import type { ReachSet } from '@bop/shared';

/** Who asks, as the attachment rules see them (spec: Attachments). */
export interface Viewer {
  /** the principal's id: usr_… or int_… */
  id: string;
  /** the employee the caller's account is linked to */
  employeeId: string | null;
  /** the reach of `attachments.read` (null: not held); org units already resolved to locations */
  read: ReachSet | null;
  /** the reach of `attachments.manage` (null: not held) */
  manage: ReachSet | null;
}

export interface Guarded {
  uploadedById: string;
  employeeId?: string | null;
  locationId?: string | null;
}

/**
 * Whether a permission's reach covers a file: its location, or the employee it concerns in one of
 * the reach's employee sets. A file of no location and no such employee is company-wide: only reach
 * Everyone covers it.
 */
export function reachCovers(reach: ReachSet | null, a: Pick<Guarded, 'locationId' | 'employeeId'>): boolean {
  if (!reach) return false;
  if (reach.everyone) return true;
  if (a.employeeId && reach.employeeSetIds.has(a.employeeId)) return true;
  return Boolean(a.locationId) && reach.locationIds.has(a.locationId!);
}

/** Details and download: the uploader, the employee concerned, or `attachments.read` reaching the file. */
export function canRead(a: Guarded, v: Viewer): boolean {
  return a.uploadedById === v.id || (v.employeeId !== null && a.employeeId === v.employeeId) || reachCovers(v.read, a);
}

/** Delete: the uploader, or `attachments.manage` reaching the file. */
export function canDelete(a: Guarded, v: Viewer): boolean {
  return a.uploadedById === v.id || reachCovers(v.manage, a);
}
