import type { Work } from '@bop/shared';
import { ApprovedTimeOff } from './entities';
import { flagTimeOffShifts } from '../shifts/store';

export interface TimeOffChange {
  id: string;
  employeeId: string;
  startDate: string;
  endDate: string;
  partialHours: string | null;
  status: 'approved' | 'cancelled';
  version: number;
}

/**
 * Keeps a time-off request as time last announced it, and flags the employee's shifts on its days
 * (supplement: approval flags overlapping shifts; a cancel lifts the flags). An older or repeated
 * announcement changes nothing (its version).
 */
export async function keepTimeOff(w: Work, change: TimeOffChange): Promise<void> {
  const { em } = w;
  const row = await em.findOne(ApprovedTimeOff, { id: change.id });
  if (row && row.version >= change.version) return;
  const { id, ...fields } = change;
  if (row) Object.assign(row, fields);
  else em.create(ApprovedTimeOff, { id, ...fields });
  await em.flush();
  await flagTimeOffShifts(w, change);
}
