import type { EventEnvelope } from '@bop/contracts';
import type { Work } from '@bop/shared';
import { CommunicationShift } from './entities';

interface ShiftObject {
  id?: string;
  locationId?: string;
  employeeId?: string | null;
  position?: string;
  start?: string;
  end?: string;
  localStart?: string;
  status?: 'draft' | 'published' | 'archived';
  version?: number;
  updatedAt?: string;
}

/** Writes the shift of a `shift.changed` into `communication.shifts` (a replayed older version never overwrites a newer one). */
export async function recordShift(w: Work, event: EventEnvelope): Promise<void> {
  const o = event.data.object as ShiftObject;
  if (!o.id || !o.locationId || !o.start || !o.end || !o.localStart || !o.status || typeof o.version !== 'number') {
    // a producer's bug: parked in dead_letters rather than dropped
    throw new Error(`${event.type} ${event.id}: data.object is not a shift (id, locationId, start, end, localStart, status, version)`);
  }
  const row = {
    id: o.id,
    locationId: o.locationId,
    employeeId: o.employeeId ?? null,
    position: o.position ?? '',
    startAt: new Date(o.start),
    endAt: new Date(o.end),
    // localStart carries the location's offset: its first ten characters are the local day
    localDate: o.localStart.slice(0, 10),
    status: o.status,
    version: o.version,
    updatedAt: new Date(o.updatedAt ?? event.createdAt),
  };
  await w.em
    .createQueryBuilder(CommunicationShift)
    .insert(row)
    .onConflict('id')
    .merge(['locationId', 'employeeId', 'position', 'startAt', 'endAt', 'localDate', 'status', 'version', 'updatedAt'])
    .where({ version: { $lte: o.version } })
    .execute();
}

/**
 * `schedule.published` names the draft shifts it published (scheduling emits no `shift.changed` for
 * them): each held as a draft becomes published, one version on, as at scheduling.
 */
export async function recordPublishedShifts(w: Work, event: EventEnvelope): Promise<void> {
  const o = event.data.object as { shiftIds?: unknown };
  if (!Array.isArray(o.shiftIds) || o.shiftIds.some((id) => typeof id !== 'string')) throw new Error(`${event.type} ${event.id}: data.object.shiftIds is not a list of shift ids`);
  if (o.shiftIds.length === 0) return;
  const drafts = await w.em.find(CommunicationShift, { id: { $in: o.shiftIds as string[] }, status: 'draft' });
  for (const s of drafts) {
    s.status = 'published';
    s.version += 1;
    s.updatedAt = new Date(event.createdAt);
  }
  await w.em.flush();
}
