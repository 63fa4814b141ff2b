import { LockMode } from '@mikro-orm/core';
import {
  actorOf,
  assertEmployeeRecordInReach,
  employeeScopeCondition,
  type EmployeeRecordScope,
  businessDayOf,
  findPage,
  mapPage,
  NotFound,
  PeriodLocked,
  resolveEmployees,
  resolveLocations,
  type PageRequest,
  type ReachSet,
  type Work,
} from '@bop/shared';
import { HeldPunch, Punch, type PunchTypeName } from './entities';
import { heldPunchDto, punchDto, punchWithHistoryDto } from './dto';
import { punchObject } from './ingest-store';
import { punchExceptions } from './punch-rules';
import { periodsById, periodsOfDates } from '../pay-periods/store';
import { markTimesheets } from '../timesheets/marks-store';
import type { TimeSettings } from '../settings/company-settings';

export interface PunchFilters {
  scope?: EmployeeRecordScope;
  employeeId?: string;
  from?: string;
  to?: string;
  updatedSince?: string;
}

/** `GET /time/punches` (and `/me/punches`): a page of punches, oldest id first; `status: held` lists those held for review. */
export async function listPunches(w: Work, f: PunchFilters & { status?: 'active' | 'held' }, page: PageRequest) {
  const { em } = w;
  if (f.status === 'held') {
    const held = await findPage(
      em,
      HeldPunch,
      [
        employeeScopeCondition<HeldPunch>(f.scope, { location: (ids) => ({ row: { location_id: ids } }), employee: (ids) => ({ row: { employee_id: ids } }) }),
        f.employeeId && { row: { employee_id: f.employeeId } },
        // the held punch's time is in its stored row, compared in the query (a page is never cut short by
        // the range) as text: the row holds it as toISOString() writes it (UTC, fixed width), so the order
        // of the text is the order of the instants
        f.from && { row: { occurred_at: { $gte: new Date(f.from).toISOString() } } },
        f.to && { row: { occurred_at: { $lt: new Date(f.to).toISOString() } } },
      ],
      { ...page, updatedSince: f.updatedSince },
    );
    return mapPage(held, heldPunchDto);
  }
  const rows = await findPage(
    em,
    Punch,
    [
      employeeScopeCondition<Punch>(f.scope, { location: (ids) => ({ locationId: ids }), employee: (ids) => ({ employeeId: ids }) }),
      f.employeeId && { employeeId: f.employeeId },
      f.from && { occurredAt: { $gte: new Date(f.from) } },
      f.to && { occurredAt: { $lt: new Date(f.to) } },
    ],
    { ...page, updatedSince: f.updatedSince },
  );
  return mapPage(rows, punchDto);
}

/** `GET /time/punches/{id}`: a punch with its correction history, or a held one; 404 out of reach as absent. */
export async function getPunch(w: Work, id: string, reach: ReachSet) {
  const { em } = w;
  const p = await em.findOne(Punch, { id });
  if (p) {
    assertEmployeeRecordInReach(reach, p.locationId, p.employeeId);
    return punchWithHistoryDto(p);
  }
  const h = await em.findOne(HeldPunch, { id });
  if (!h) throw new NotFound('punch', id);
  assertEmployeeRecordInReach(reach, h.row.location_id, h.row.employee_id);
  return { ...heldPunchDto(h), corrections: [] };
}

/**
 * Changes a punch's time or type with a reason (`POST /time/punches/{id}:correct`, and an approved
 * correction request): the first form is kept in `original`, each change in `corrections`; 409
 * `period_locked` when the punch lies, or would move, in a locked pay period. The timesheets of both
 * periods are reopened and recalculated; `punch.corrected`. A manager's correction is checked against
 * the caller's reach and If-Match; an approved request was checked when it was decided.
 */
export async function correctPunch(
  w: Work,
  id: string,
  change: { occurredAt?: string; type?: PunchTypeName; reason: string },
  opts: { via: 'correction' | 'request'; settings: () => Promise<TimeSettings> },
) {
  const { em } = w;
  const p = await em.findOne(Punch, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!p) {
    if (await em.findOne(HeldPunch, { id })) throw new PeriodLocked(`Punch ${id} is held for review in a locked pay period; unlock the period first.`);
    throw new NotFound('punch', id);
  }
  if (opts.via === 'correction') {
    assertEmployeeRecordInReach(w.reach(), p.locationId, p.employeeId);
    w.checkVersion(p.version);
  }
  const before = { type: p.type, occurredAt: p.occurredAt.toISOString() };
  const after = { type: change.type ?? p.type, occurredAt: change.occurredAt ? new Date(change.occurredAt).toISOString() : before.occurredAt };
  const current = p.payPeriodId ? (await periodsById(w, [p.payPeriodId])).get(p.payPeriodId) : undefined;
  if (current?.locked) throw new PeriodLocked(`Punch ${id} lies in the locked pay period ${current.start} to ${current.end}; unlock it first.`);
  const location = (await resolveLocations(w, [{ locationId: p.locationId }])).byId.get(p.locationId);
  const localDate = businessDayOf(after.occurredAt, location?.timezone ?? 'UTC', '00:00');
  const target = (await periodsOfDates(w, [localDate], opts.settings)).get(localDate)!;
  if (target.locked) throw new PeriodLocked(`The new time falls in the locked pay period ${target.start} to ${target.end}.`);
  if (before.type === after.type && before.occurredAt === after.occurredAt) return punchWithHistoryDto(p);
  const at = w.now;
  const employee = (await resolveEmployees(w, [{ employeeId: p.employeeId }])).byId.get(p.employeeId);
  p.original = p.original ?? before;
  p.corrections = [...p.corrections, { at: at.toISOString(), by: actorOf(w.actor), reason: change.reason, before, after, via: opts.via }];
  p.type = after.type;
  p.occurredAt = new Date(after.occurredAt);
  if (employee) p.exceptions = punchExceptions(employee, p.locationId, p.position ?? null);
  const oldPeriod = p.payPeriodId;
  p.payPeriodId = target.id;
  p.version += 1;
  p.updatedAt = at;
  await em.flush();
  const row = { employee_id: p.employeeId, location_id: p.locationId, type: p.type, occurred_at: after.occurredAt, device_id: p.deviceId ?? null, position: p.position ?? null, exceptions: p.exceptions, pay_period_id: p.payPeriodId };
  w.emit({
    type: 'punch.corrected',
    aggregateType: 'punch',
    aggregateId: p.id,
    locationId: p.locationId,
    object: punchObject({ id: p.id, source: p.source, externalId: p.externalId, row, version: p.version, at }),
    previous: before,
  });
  const home = employee?.homeLocationId ?? p.locationId;
  await markTimesheets(
    w,
    [target.id, ...(oldPeriod && oldPeriod !== target.id ? [oldPeriod] : [])].map((payPeriodId) => ({ employeeId: p.employeeId, payPeriodId, locationId: home })),
  );
  return punchWithHistoryDto(p);
}
