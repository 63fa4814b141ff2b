import type { Work } from '@bop/shared';
import { ScheduledShift } from './entities';

/** A shift as scheduling's `shift.changed` carries it (what insights keeps of it). */
export interface ShiftChange {
  shiftId: string;
  version: number;
  locationId: string;
  businessDay: string;
  employeeId: string | null;
  position: string | null;
  paidHours: string;
  status: string;
  startsAt: Date | null;
  endsAt: Date | null;
}

/** The locations these shifts are held at (plain rows, not managed: the writes after them stay the store's own). */
export async function locationsOfShifts(w: Work, shiftIds: string[]): Promise<string[]> {
  if (shiftIds.length === 0) return [];
  const rows = await w.em.createQueryBuilder(ScheduledShift).select(['locationId']).where({ shiftId: { $in: shiftIds } }).execute<Array<{ locationId: string }>>('all', true);
  return rows.map((r) => r.locationId);
}

/** Keeps a shift's newer version; an older or repeated one changes nothing. */
export async function applyShift(w: Work, c: ShiftChange): Promise<void> {
  const held = await w.em.findOne(ScheduledShift, { shiftId: c.shiftId });
  if (held && held.version >= c.version) return;
  if (held) Object.assign(held, c);
  else w.em.create(ScheduledShift, { ...c });
  await w.em.flush();
}

/**
 * `schedule.published` names the drafts it published (`shiftIds`) without their new version: each
 * still held as a draft becomes published (a later `shift.changed` carries the version after it).
 */
export async function applyPublished(w: Work, shiftIds: string[]): Promise<void> {
  if (shiftIds.length === 0) return;
  await w.em.nativeUpdate(ScheduledShift, { shiftId: { $in: shiftIds }, status: 'draft' }, { status: 'published' });
}
