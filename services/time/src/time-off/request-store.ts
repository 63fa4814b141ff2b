import Decimal from 'decimal.js';
import { LockMode } from '@mikro-orm/core';
import {
  actorOf,
  assertEmployeeRecordInReach,
  employeeScopeCondition,
  type EmployeeRecordScope,
  Conflict,
  findPage,
  findPlain,
  lockForTransaction,
  mapPage,
  newId,
  NotFound,
  resolveEmployees,
  ValidationError,
  type PageRequest,
  type ReachSet,
  type Work,
} from '@bop/shared';
import { TimeOffEntry, TimeOffRequest, TimeOffType } from './entities';
import { hoursText, requestDto } from './dto';
import { requestFits, requestHours, TimeOffInputError } from './accrual';
import { requestHoursByDay } from './request-days';
import { employeeBalances, governingPolicies, todayAtHome } from './balance-store';

export interface RequestFilters {
  status?: 'pending' | 'approved' | 'rejected' | 'cancelled';
  employeeId?: string;
  scope?: EmployeeRecordScope;
  from?: string;
  to?: string;
}

/** `GET /time-off/requests` (by the employee's home location, within the reach) and `/me/time-off/requests`: oldest first. */
export async function listRequests(w: Work, f: RequestFilters, page: PageRequest & { updatedSince?: string }) {
  const rows = await findPage(
    w.em,
    TimeOffRequest,
    [f.status && { status: f.status }, f.employeeId && { employeeId: f.employeeId }, employeeScopeCondition<TimeOffRequest>(f.scope, { location: (ids) => ({ locationId: ids }), employee: (ids) => ({ employeeId: ids }) }), f.from && { endDate: { $gte: f.from } }, f.to && { startDate: { $lte: f.to } }],
    page,
  );
  return mapPage(rows, requestDto);
}

export interface RequestInput {
  employeeId: string;
  typeId: string;
  startDate: string;
  endDate: string;
  partialHours?: string | null;
  note?: string | null;
}

/** The request's hours; a rule's complaint about the input becomes a 422 on its field. */
function hoursOf(input: RequestInput, hoursPerDay: string): string {
  try {
    return requestHours(input.startDate, input.endDate, hoursText(hoursPerDay), input.partialHours ?? null);
  } catch (err) {
    if (err instanceof TimeOffInputError) throw new ValidationError([{ path: err.path, message: err.message }]);
    throw err;
  }
}

/**
 * `POST /time-off/requests` (on behalf, within the reach by the employee's home location) and
 * `POST /me/time-off/requests` (supplement: Time-off request → `pending` when the balance suffices, or
 * the type allows a negative balance; `time_off.requested`). The balance is the one as of the first
 * day, less the hours of pending requests and of approved ones taken after that day; requests of one
 * employee and type are decided one at a time so two cannot spend the same hours.
 */
export async function createRequest(w: Work, input: RequestInput, reach: ReachSet | null) {
  const { em } = w;
  const employee = (await resolveEmployees(w, [{ employeeId: input.employeeId }])).byId.get(input.employeeId);
  if (!employee) {
    if (!reach) throw new NotFound('employee', input.employeeId);
    throw new ValidationError([{ path: 'employeeId', message: `No employee ${input.employeeId}.` }]);
  }
  if (reach) assertEmployeeRecordInReach(reach, employee.homeLocationId, employee.id);
  if (employee.status === 'archived') throw new ValidationError([{ path: 'employeeId', message: `Employee ${employee.id} is archived.` }]);
  if (employee.terminationDate && input.endDate > employee.terminationDate) {
    throw new ValidationError([{ path: 'endDate', message: `Employee ${employee.id}'s employment ends on ${employee.terminationDate}; time off cannot run past it.` }]);
  }
  const type = await em.findOne(TimeOffType, { id: input.typeId });
  if (!type) throw new ValidationError([{ path: 'typeId', message: `No time-off type ${input.typeId}.` }]);
  const covered = (await governingPolicies(w, [employee], type.id))[0];
  if (!covered) throw new ValidationError([{ path: 'typeId', message: `No ${type.name} policy covers employee ${employee.id}.` }]);
  const hours = hoursOf(input, type.hoursPerDay);
  if (hours === '0') throw new ValidationError([{ path: 'endDate', message: `${input.startDate} to ${input.endDate} holds no workday (Monday to Friday).` }]);

  await lockForTransaction(em, `${w.schema}.time_off ${employee.id} ${type.id}`);
  const [b] = await employeeBalances(w, [employee], { typeId: type.id, asOf: input.startDate, movements: false });
  const later = await findPlain(em, TimeOffEntry, { employeeId: employee.id, typeId: type.id, kind: { $in: ['taken', 'restored'] }, date: { $gt: input.startDate } });
  const takenLater = later.reduce((n, e) => (e.kind === 'taken' ? n.plus(e.hours) : n.minus(e.hours)), new Decimal(0));
  const available = new Decimal(b.balance).minus(b.pendingHours).minus(takenLater);
  // spec: supplement State table, "balance suffices, or the type allows a negative balance"
  if (!requestFits(hoursText(available.toFixed()), hours, type.allowNegativeBalance)) {
    const held = [b.pendingHours !== '0' && `${b.pendingHours} h in pending requests`, !takenLater.isZero() && `${hoursText(takenLater.toFixed())} h taken by approved requests after it`].filter(Boolean);
    throw new Conflict(
      `The ${type.name} balance as of ${input.startDate} is ${b.balance} h${held.length > 0 ? ` (${held.join(' and ')}: ${hoursText(available.toFixed())} h left)` : ''}; ` +
        `${hours} h are asked and ${type.name} allows no negative balance.`,
    );
  }

  const at = w.now;
  const r = em.create(TimeOffRequest, {
    id: newId('timeOffRequest'),
    employeeId: employee.id,
    typeId: type.id,
    locationId: employee.homeLocationId,
    startDate: input.startDate,
    endDate: input.endDate,
    partialHours: input.partialHours ?? null,
    hours,
    note: input.note ?? null,
    status: 'pending',
    requestedBy: actorOf(w.actor),
    decidedAt: null,
    decidedBy: null,
    rejectionReason: null,
    cancelledAt: null,
    cancelledBy: null,
    version: 1,
    createdAt: at,
    updatedAt: at,
  });
  await em.flush();
  record(w, 'time_off.requested', r);
  return requestDto(r);
}

function record(w: Work, type: string, r: TimeOffRequest) {
  w.emit({ type, aggregateType: 'time_off_request', aggregateId: r.id, locationId: r.locationId, object: requestDto(r) });
}

async function pendingRequest(w: Work, id: string) {
  const r = await w.em.findOne(TimeOffRequest, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!r) throw new NotFound('time-off request', id);
  assertEmployeeRecordInReach(w.reach(), r.locationId, r.employeeId);
  w.checkVersion(r.version);
  if (r.status !== 'pending') throw new Conflict(`Time-off request ${id} is ${r.status}; only a pending request is decided.`);
  return r;
}

function touch(r: TimeOffRequest, at: Date) {
  r.version += 1;
  r.updatedAt = at;
}

/** A ledger row of a request: its hours taken on approval, or given back on a cancel; dated its first day. */
function requestEntry(w: Work, r: TimeOffRequest, kind: 'taken' | 'restored') {
  w.em.create(TimeOffEntry, {
    id: newId('timeOffEntry'),
    employeeId: r.employeeId,
    typeId: r.typeId,
    kind,
    date: r.startDate,
    hours: hoursText(r.hours),
    reason: null,
    requestId: r.id,
    createdBy: actorOf(w.actor),
    createdAt: w.now,
  });
}

/**
 * `:approve` (supplement: `pending` → `approved`): the hours are deducted (a ledger `taken` row dated
 * the first day); `time_off.approved` carries the request (employee and dates) so scheduling can
 * flag the shifts it overlaps.
 */
export async function approveRequest(w: Work, id: string) {
  const r = await pendingRequest(w, id);
  const at = w.now;
  r.status = 'approved';
  r.decidedAt = at;
  r.decidedBy = actorOf(w.actor);
  touch(r, at);
  requestEntry(w, r, 'taken');
  await w.em.flush();
  record(w, 'time_off.approved', r);
  return requestDto(r);
}

/** `:reject` with a reason (supplement: `pending` → `rejected`, final); `time_off.rejected`. */
export async function rejectRequest(w: Work, id: string, reason: string) {
  const r = await pendingRequest(w, id);
  const at = w.now;
  r.status = 'rejected';
  r.decidedAt = at;
  r.decidedBy = actorOf(w.actor);
  r.rejectionReason = reason;
  touch(r, at);
  await w.em.flush();
  record(w, 'time_off.rejected', r);
  return requestDto(r);
}

/**
 * `POST /me/time-off/requests/{id}:cancel` (supplement: `pending` or `approved` → `cancelled`, final):
 * an approved request only while its first day has not begun at the employee's home location, its
 * hours then given back (a ledger `restored` row dated like the `taken` one). Another's request: 404.
 */
export async function cancelRequest(w: Work, id: string, employeeId: string) {
  const { em } = w;
  const r = await em.findOne(TimeOffRequest, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!r || r.employeeId !== employeeId) throw new NotFound('time-off request', id);
  const at = w.now;
  if (r.status === 'approved') {
    const employee = (await resolveEmployees(w, [{ employeeId }])).byId.get(employeeId);
    const today = (await todayAtHome(w, [{ id: employeeId, homeLocationId: employee?.homeLocationId ?? r.locationId }])).get(employeeId)!;
    if (today >= r.startDate) throw new Conflict(`Time-off request ${id} began on ${r.startDate} (today is ${today} at your home location); an approved request is cancelled only before its first day.`);
    requestEntry(w, r, 'restored');
  } else if (r.status !== 'pending') {
    throw new Conflict(`Time-off request ${id} is ${r.status}; only a pending or approved request is cancelled.`);
  }
  const wasApproved = r.status === 'approved';
  r.status = 'cancelled';
  r.cancelledAt = at;
  r.cancelledBy = actorOf(w.actor);
  touch(r, at);
  await em.flush();
  // internal: scheduling no longer warns of the days off; public: the project's own type (the seed's catalogue has no time-off cancel event)
  if (wasApproved) record(w, 'time.time_off_request.cancelled', r);
  record(w, 'time_off.cancelled', r);
  return requestDto(r);
}

/**
 * Paid time off per employee and day within [from, to] (for the payroll export): approved requests
 * (a cancelled one is no longer approved) of paid types, spread over their workdays — Monday to
 * Friday as the request's hours were counted; a partial-day request on its one day. Employees without
 * any are absent from the map.
 */
export async function paidTimeOffHoursByDay(w: Work, employeeIds: string[], from: string, to: string): Promise<Map<string, Record<string, string>>> {
  const out = new Map<string, Record<string, string>>();
  if (employeeIds.length === 0) return out;
  const { em } = w;
  const requests = await findPlain(em, TimeOffRequest, { employeeId: { $in: [...new Set(employeeIds)] }, status: 'approved', startDate: { $lte: to }, endDate: { $gte: from } }, { orderBy: { id: 'asc' } });
  if (requests.length === 0) return out;
  const paid = new Set((await findPlain(em, TimeOffType, { id: { $in: [...new Set(requests.map((r) => r.typeId))] }, paid: true })).map((t) => t.id));
  for (const r of requests) {
    if (!paid.has(r.typeId)) continue;
    const days = out.get(r.employeeId) ?? {};
    for (const d of requestHoursByDay({ startDate: r.startDate, endDate: r.endDate, hours: r.hours, partialHours: r.partialHours ?? null }, from, to)) {
      days[d.date] = hoursText(new Decimal(days[d.date] ?? 0).plus(d.hours).toFixed());
    }
    if (Object.keys(days).length > 0) out.set(r.employeeId, days);
  }
  return out;
}
