import { LockMode } from '@mikro-orm/core';
import {
  actorOf,
  assertEmployeeRecordInReach,
  employeeScopeCondition,
  type EmployeeRecordScope,
  businessDayOf,
  Conflict,
  findPage,
  mapPage,
  newId,
  NotFound,
  now as clockNow,
  PeriodLocked,
  resolveEmployees,
  resolveLocations,
  ValidationError,
  type EntityManager,
  type PageRequest,
  type Principal,
  type ReachSet,
} from '@bop/shared';
import { PunchCorrection } from './entities';
import { correctionDto } from './dto';
import { Punch, type PunchTypeName } from '../punches/entities';
import { correctPunch } from '../punches/store';
import { ingestPunches } from '../punches/ingest-store';
import { periodsById, periodsOfDates } from '../pay-periods/store';
import type { TimeSettings } from '../settings/company-settings';

/** Refuses (409 `period_locked`) a time that falls in a locked pay period at the location. */
async function assertOpenAt(em: EntityManager, locationId: string, occurredAt: string, settings: () => Promise<TimeSettings>): Promise<void> {
  const location = (await resolveLocations(em, 'time', [{ locationId }])).byId.get(locationId);
  if (!location) throw new ValidationError([{ path: 'locationId', message: `No location ${locationId}.` }]);
  const date = businessDayOf(occurredAt, location.timezone, '00:00');
  const period = (await periodsOfDates(em, [date], settings)).get(date)!;
  if (period.locked) throw new PeriodLocked(`The pay period ${period.start} to ${period.end} is locked; a punch on ${date} can no longer change.`);
}

/**
 * `POST /me/punch-corrections` (supplement: Punch correction → `pending`): a wrong punch of the
 * caller's own (its time or type), or a missing one; refused (409 `period_locked`) in a locked pay period.
 */
export async function requestCorrection(
  em: EntityManager,
  employeeId: string,
  body: { punchId?: string; type?: PunchTypeName; occurredAt?: string; locationId?: string; reason: string },
  settings: () => Promise<TimeSettings>,
) {
  let current: { type: PunchTypeName; occurredAt: string } | null = null;
  let locationId: string;
  if (body.punchId) {
    const p = await em.findOne(Punch, { id: body.punchId });
    if (!p || p.employeeId !== employeeId) throw new ValidationError([{ path: 'punchId', message: `No punch ${body.punchId} of yours.` }]);
    current = { type: p.type, occurredAt: p.occurredAt.toISOString() };
    locationId = p.locationId;
    const period = p.payPeriodId ? (await periodsById(em, [p.payPeriodId])).get(p.payPeriodId) : undefined;
    if (period?.locked) throw new PeriodLocked(`Punch ${p.id} lies in the locked pay period ${period.start} to ${period.end}.`);
  } else {
    const me = (await resolveEmployees(em, 'time', [{ employeeId }])).byId.get(employeeId);
    if (!me) throw new NotFound('employee', employeeId);
    locationId = body.locationId ?? me.homeLocationId;
  }
  const type = body.type ?? current!.type;
  const occurredAt = body.occurredAt ? new Date(body.occurredAt).toISOString() : current!.occurredAt;
  await assertOpenAt(em, locationId, occurredAt, settings);
  const at = clockNow();
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
  return correctionDto(c);
}

/** The list for managers (`GET /time/punch-corrections`, by location within the reach) and for the employee (`/me`). */
export async function listCorrections(em: EntityManager, f: { status?: string; scope?: EmployeeRecordScope; employeeId?: string }, page: PageRequest) {
  const rows = await findPage(em, PunchCorrection, [f.status && { status: f.status as never }, employeeScopeCondition<PunchCorrection>(f.scope, { location: (ids) => ({ locationId: ids }), employee: (ids) => ({ employeeId: ids }) }), f.employeeId && { employeeId: f.employeeId }], page);
  return mapPage(rows, correctionDto);
}

/**
 * `:approve` (supplement: `pending` → `approved`, pay period not locked): the punch is changed as a
 * manager's correction (`via: request`) or the missing punch added (source `punch-corrections`, the
 * request's id as its externalId); its timesheet is reopened and recalculated; `punch.corrected` or
 * `punch.received`.
 */
export async function approveCorrection(em: EntityManager, id: string, caller: { principal: Principal; reach: ReachSet; settings: () => Promise<TimeSettings> }) {
  return em.transactional(async (tem) => {
    const c = await pendingCorrection(tem, id, caller.reach);
    await assertOpenAt(tem, c.locationId, c.occurredAt.toISOString(), caller.settings);
    let applied: string;
    if (c.punchId) {
      const change = { type: c.type, occurredAt: c.occurredAt.toISOString(), reason: `Correction request ${c.id}: ${c.reason}` };
      applied = (await correctPunch(tem, c.punchId, change, { principal: caller.principal, reach: { everyone: true } as ReachSet, via: 'request', settings: caller.settings })).id;
    } else {
      const result = await ingestPunches(tem, {
        source: 'punch-corrections',
        records: [{ externalId: c.id, employeeId: c.employeeId, locationId: c.locationId, type: c.type, occurredAt: c.occurredAt.toISOString() }],
        actor: caller.principal,
        endpoint: 'POST /time/punch-corrections/{id}:approve',
        settings: caller.settings,
        batchEvent: false,
      });
      const r = result.results[0];
      if (r.status === 'rejected' || !r.id) throw new ValidationError(r.errors ?? [], 'The missing punch could not be added.');
      applied = r.id;
    }
    decide(c, caller.principal, 'approved');
    c.appliedPunchId = applied;
    await tem.flush();
    return correctionDto(c);
  });
}

/** `:reject` with a reason (supplement: `pending` → `rejected`, final). */
export async function rejectCorrection(em: EntityManager, id: string, reason: string, caller: { principal: Principal; reach: ReachSet }) {
  return em.transactional(async (tem) => {
    const c = await pendingCorrection(tem, id, caller.reach);
    decide(c, caller.principal, 'rejected');
    c.rejectionReason = reason;
    await tem.flush();
    return correctionDto(c);
  });
}

/** `POST /me/punch-corrections/{id}:cancel`: the employee withdraws a pending request of theirs. */
export async function cancelCorrection(em: EntityManager, id: string, employeeId: string, principal: Principal) {
  return em.transactional(async (tem) => {
    const c = await tem.findOne(PunchCorrection, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!c || c.employeeId !== employeeId) throw new NotFound('punch correction', id);
    if (c.status !== 'pending') throw new Conflict(`Punch correction ${id} is ${c.status}; only a pending request is cancelled.`);
    decide(c, principal, 'cancelled');
    await tem.flush();
    return correctionDto(c);
  });
}

async function pendingCorrection(em: EntityManager, id: string, reach: ReachSet) {
  const c = await em.findOne(PunchCorrection, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!c) throw new NotFound('punch correction', id);
  assertEmployeeRecordInReach(reach, c.locationId, c.employeeId);
  if (c.status !== 'pending') throw new Conflict(`Punch correction ${id} is ${c.status}; only a pending request is decided.`);
  return c;
}

function decide(c: PunchCorrection, principal: Principal, status: 'approved' | 'rejected' | 'cancelled') {
  const at = clockNow();
  c.status = status;
  c.decidedAt = at;
  c.decidedBy = actorOf(principal);
  c.version += 1;
  c.updatedAt = at;
}
