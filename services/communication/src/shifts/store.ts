import type { EventEnvelope } from '@bop/contracts';
import { lockForTransaction, type Work } from '@bop/shared';
import { CommunicationShift, PublishedShift } from './entities';

/**
 * The advisory lock of a location's shifts in the replica: a shift's `shift.changed` and a
 * `schedule.published` naming it (the publication of the shift's location) are applied one after the
 * other, whichever consumer and partition brings them, so that neither misses the other. One key per
 * location, not per shift: a publication of thousands takes one lock, and consumers' batches that
 * take keys in their messages' order rarely wait on each other.
 */
export const lockShiftsAt = (w: Work, locationId: string) => lockForTransaction(w.em, `communication:shifts-at:${locationId}`);

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

/**
 * Writes the shift of a `shift.changed` into `communication.shifts` (a replayed older version never
 * overwrites a newer one). A draft that a `schedule.published` already named (Kafka may deliver the
 * publication first) is written published, one version on, as scheduling's publication made it.
 * Answers the shift's id.
 */
export async function recordShift(w: Work, event: EventEnvelope): Promise<string> {
  const o = event.data.object as ShiftObject;
  if (!o.id || !o.locationId || !o.start || !o.end || !o.localStart || !o.status || typeof o.version !== 'number') {
    // a producer's bug: parked in dead_letters rather than dropped
    throw new Error(`${event.type} ${event.id}: data.object is not a shift (id, locationId, start, end, localStart, status, version)`);
  }
  await lockShiftsAt(w, o.locationId);
  const updatedAt = new Date(o.updatedAt ?? event.createdAt);
  let status = o.status;
  let version = o.version;
  if (status === 'draft') {
    const published = await w.em.findOne(PublishedShift, { shiftId: o.id });
    if (published && updatedAt.getTime() <= published.publishedAt.getTime()) {
      status = 'published';
      version += 1;
    }
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
    status,
    version,
    updatedAt,
  };
  await w.em
    .createQueryBuilder(CommunicationShift)
    .insert(row)
    .onConflict('id')
    .merge(['locationId', 'employeeId', 'position', 'startAt', 'endAt', 'localDate', 'status', 'version', 'updatedAt'])
    .where({ version: { $lte: version } })
    .execute();
  return o.id;
}

/**
 * `schedule.published` names the draft shifts it published (scheduling emits no `shift.changed` for
 * them): each held as a draft becomes published, one version on, as at scheduling. Each is also
 * remembered as published, for a draft whose `shift.changed` arrives after the publication.
 */
export async function recordPublishedShifts(w: Work, event: EventEnvelope): Promise<void> {
  const o = event.data.object as { locationId?: unknown; shiftIds?: unknown; publishedAt?: unknown };
  if (typeof o.locationId !== 'string' || !Array.isArray(o.shiftIds) || o.shiftIds.some((id) => typeof id !== 'string')) throw new Error(`${event.type} ${event.id}: data.object is not a publication (locationId, shiftIds)`);
  const ids = [...new Set(o.shiftIds as string[])];
  if (ids.length === 0) return;
  const publishedAt = new Date(typeof o.publishedAt === 'string' ? o.publishedAt : event.createdAt);
  await lockShiftsAt(w, o.locationId);
  await w.em.createQueryBuilder(PublishedShift).insert(ids.map((shiftId) => ({ shiftId, publishedAt }))).onConflict('shiftId').ignore().execute();
  const drafts = await w.em.find(CommunicationShift, { id: { $in: ids }, status: 'draft' });
  for (const s of drafts) {
    s.status = 'published';
    s.version += 1;
    s.updatedAt = publishedAt;
  }
  await w.em.flush();
}
