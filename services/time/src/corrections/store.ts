import { LockMode } from '@mikro-orm/core';
import {
  actorOf,
  assertEmployeeRecordInReach,
  employeeScopeCondition,
  type EmployeeRecordScope,
  businessDayOf,
  changedFields,
  Conflict,
  findPage,
  mapPage,
  newId,
  NotFound,
  PeriodLocked,
  resolveEmployees,
  resolveLocations,
  ValidationError,
  type EntityManager,
  type PageRequest,
  type ReachSet,
  type Work,
} from '@bop/shared';
import { PunchCorrection } from './entities';
import { correctionDto } from './dto';
import { Punch, type PunchTypeName } from '../punches/entities';
import { correctPunch } from '../punches/store';
import { ingestPunches } from '../punches/ingest-store';
import { periodsById, periodsOfDates } from '../pay-periods/store';
import type { TimeSettings } from '../settings/company-settings';

type CorrectionEvent = 'punch_correction.requested' | 'punch_correction.approved' | 'punch_correction.rejected' | 'punch_correction.cancelled';

/** A correction request's public change event (the project's own types): data.object the request as the API returns it. */
function recordCorrection(w: Work, type: CorrectionEvent, c: PunchCorrection, before?: ReturnType<typeof correctionDto>) {
  const object = correctionDto(c);
  w.emit({ type, aggregateType: 'punch_correction', aggregateId: c.id, locationId: c.locationId, object, ...(before ? { previous: changedFields(before, object) } : {}) });
  return object;
}

/** Refuses (409 `period_locked`) a time that falls in a locked pay period at the location. */
async function assertOpenAt(w: Work, locationId: string, occurredAt: string, settings: () => Promise<TimeSettings>): Promise<void> {
  const location = (await resolveLocations(w, [{ locationId }])).byId.get(locationId);
  if (!location) throw new ValidationError([{ path: 'locationId', message: `No location ${locationId}.` }]);
  const date = businessDayOf(occurredAt, location.timezone, '00:00');
  const period = (await periodsOfDates(w, [date], settings)).get(date)!;
  if (period.locked) throw new PeriodLocked(`The pay period ${period.start} to ${period.end} is locked; a punch on ${date} can no longer change.`);
}

/**
 * `POST /me/punch-corrections` (supplement: Punch correction → `pending`): a wrong punch of the
 * caller's own (its time or type), or a missing one; refused (409 `period_locked`) in a locked pay period.
 */
export async function requestCorrection(
  w: Work,
  employeeId: string,
  body: { punchId?: string; type?: PunchTypeName; occurredAt?: string; locationId?: string; reason: string },
  settings: () => Promise<TimeSettings>,
) {
  const { em } = w;
  let current: { type: PunchTypeName; occurredAt: string } | null = null;
  let locationId: string;
  if (body.punchId) {
    const p = await em.findOne(Punch, { id: body.punchId });
    if (!p || p.employeeId !== employeeId) throw new ValidationError([{ path: 'punchId', message: `No punch ${body.punchId} of yours.` }]);
    current = { type: p.type, occurredAt: p.occurredAt.toISOString() };
    locationId = p.locationId;
    const period = p.payPeriodId ? (await periodsById(w, [p.payPeriodId])).get(p.payPeriodId) : undefined;
    if (period?.locked) throw new PeriodLocked(`Punch ${p.id} lies in the locked pay period ${period.start} to ${period.end}.`);
  } else {
    const me = (await resolveEmployees(w, [{ employeeId }])).byId.get(employeeId);
    if (!me) throw new NotFound('employee', employeeId);
    locationId = body.locationId ?? me.homeLocationId;
  }
  const type = body.type ?? current!.type;
  const occurredAt = body.occurredAt ? new Date(body.occurredAt).toISOString() : current!.occurredAt;
  await assertOpenAt(w, locationId, occurredAt, settings);
  const at = w.now;
  const c = em.create(PunchCorrection, {
    id: newId('punchCorrection'),
    employeeId,
    punchId: body.punchId ?? null,
    locationId,
    type,
    occurredAt: new Date(occurredAt),
    current,
    reason: body.reason,
    status: 'pending',
    appliedPunchId: null,
    decidedAt: null,
    decidedBy: null,
    rejectionReason: null,
    version: 1,
    createdAt: at,
    updatedAt: at,
  });
  await em.flush();
  return recordCorrection(w, 'punch_correction.requested', c);
}

/** The list for managers (`GET /time/punch-corrections`, by location within the reach) and for the employee (`/me`). */
export async function listCorrections(w: Work, f: { status?: string; scope?: EmployeeRecordScope; employeeId?: string }, page: PageRequest & { updatedSince?: string }) {
  const rows = await findPage(w.em, PunchCorrection, [f.status && { status: f.status as never }, employeeScopeCondition<PunchCorrection>(f.scope, { location: (ids) => ({ locationId: ids }), employee: (ids) => ({ employeeId: ids }) }), f.employeeId && { employeeId: f.employeeId }], page);
  return mapPage(rows, correctionDto);
}

/**
 * `:approve` (supplement: `pending` → `approved`, pay period not locked): the punch is changed as a
 * manager's correction (`via: request`) or the missing punch added (source `punch-corrections`, the
 * request's id as its externalId); its timesheet is reopened and recalculated; `punch.corrected` or
 * `punch.received`.
 */
export async function approveCorrection(w: Work, id: string, settings: () => Promise<TimeSettings>) {
  const c = await pendingCorrection(w.em, id, w.reach());
  await assertOpenAt(w, c.locationId, c.occurredAt.toISOString(), settings);
  let applied: string;
  if (c.punchId) {
    const change = { type: c.type, occurredAt: c.occurredAt.toISOString(), reason: `Correction request ${c.id}: ${c.reason}` };
    applied = (await correctPunch(w, c.punchId, change, { via: 'request', settings })).id;
  } else {
    const result = await ingestPunches(w, {
      source: 'punch-corrections',
      records: [{ externalId: c.id, employeeId: c.employeeId, locationId: c.locationId, type: c.type, occurredAt: c.occurredAt.toISOString() }],
      endpoint: 'POST /time/punch-corrections/{id}:approve',
      settings,
      batchEvent: false,
    });
    const r = result.results[0];
    if (r.status === 'rejected' || !r.id) throw new ValidationError(r.errors ?? [], 'The missing punch could not be added.');
    applied = r.id;
  }
  const before = correctionDto(c);
  decide(w, c, 'approved');
  c.appliedPunchId = applied;
  await w.em.flush();
  return recordCorrection(w, 'punch_correction.approved', c, before);
}

/** `:reject` with a reason (supplement: `pending` → `rejected`, final). */
export async function rejectCorrection(w: Work, id: string, reason: string) {
  const c = await pendingCorrection(w.em, id, w.reach());
  const before = correctionDto(c);
  decide(w, c, 'rejected');
  c.rejectionReason = reason;
  await w.em.flush();
  return recordCorrection(w, 'punch_correction.rejected', c, before);
}

/** `POST /me/punch-corrections/{id}:cancel`: the employee withdraws a pending request of theirs. */
export async function cancelCorrection(w: Work, id: string, employeeId: string) {
  const c = await w.em.findOne(PunchCorrection, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!c || c.employeeId !== employeeId) throw new NotFound('punch correction', id);
  if (c.status !== 'pending') throw new Conflict(`Punch correction ${id} is ${c.status}; only a pending request is cancelled.`);
  const before = correctionDto(c);
  decide(w, c, 'cancelled');
  await w.em.flush();
  return recordCorrection(w, 'punch_correction.cancelled', c, before);
}

async function pendingCorrection(em: EntityManager, id: string, reach: ReachSet) {
  const c = await em.findOne(PunchCorrection, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!c) throw new NotFound('punch correction', id);
  assertEmployeeRecordInReach(reach, c.locationId, c.employeeId);
  if (c.status !== 'pending') throw new Conflict(`Punch correction ${id} is ${c.status}; only a pending request is decided.`);
  return c;
}

function decide(w: Work, c: PunchCorrection, status: 'approved' | 'rejected' | 'cancelled') {
  const at = w.now;
  c.status = status;
  c.decidedAt = at;
  c.decidedBy = actorOf(w.actor);
  c.version += 1;
  c.updatedAt = at;
}
