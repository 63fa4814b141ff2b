import { LockMode } from '@mikro-orm/core';
import { DateTime } from 'luxon';
import {
  assertEmployeeRecordInReach,
  assertLocationInReach,
  Conflict,
  findPage,
  findPlain,
  lockForTransaction,
  NotFound,
  now as clockNow,
  recordEvent,
  resolveEmployees,
  resolveLocations,
  ValidationError,
  type EntityManager,
  type PageRequest,
  type Principal,
  type ReachSet,
  type ReplicaEmployee,
} from '@bop/shared';
import { Shift } from './entities';
import { shiftDto } from './dto';
import { employeeKey, warningsFor, zonesOf, type ShiftCaller } from './store';
import type { WarningCode } from './warnings';

const span = (s: Pick<Shift, 'start' | 'end'>, zone: string) =>
  `${DateTime.fromJSDate(new Date(s.start), { zone }).toFormat('ccc d LLL HH:mm')}–${DateTime.fromJSDate(new Date(s.end), { zone }).toFormat('HH:mm')}`;

/**
 * `POST /schedules:publish`: every draft shift of the location starting within [from, to] (local
 * dates) is published; refused (409, naming each) while a draft would double-book an employee with
 * another shift being published or already published anywhere. `schedule.published`, and
 * `open_shift.posted` for each shift published without an employee.
 */
export async function publishSchedule(em: EntityManager, body: { locationId: string; from: string; to: string }, caller: { principal: Principal; reach: ReachSet }) {
  const loc = (await resolveLocations(em, 'scheduling', [{ locationId: body.locationId }])).byId.get(body.locationId);
  if (!loc) throw new ValidationError([{ path: 'locationId', message: `No location ${body.locationId}.` }]);
  assertLocationInReach(caller.reach, body.locationId);
  const zone = loc.timezone;
  const from = DateTime.fromISO(body.from, { zone }).startOf('day').toJSDate();
  const to = DateTime.fromISO(body.to, { zone }).plus({ days: 1 }).startOf('day').toJSDate();
  return em.transactional(async (tem) => {
    const drafts = await tem.find(Shift, { locationId: body.locationId, status: 'draft', start: { $gte: from, $lt: to } }, { orderBy: { start: 'asc', id: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE });
    const employeeIds = [...new Set(drafts.map((d) => d.employeeId).filter((e): e is string => e !== null))];
    if (employeeIds.length > 0) await lockForTransaction(tem, employeeIds.map(employeeKey));
    await refuseDoubleBooking(tem, drafts, employeeIds, zone);
    const at = clockNow();
    for (const d of drafts) {
      d.status = 'published';
      d.publishedAt = at;
      d.version += 1;
      d.updatedAt = at;
    }
    await tem.flush();
    const open = drafts.filter((d) => d.employeeId === null);
    const result = {
      locationId: body.locationId,
      from: body.from,
      to: body.to,
      published: drafts.length,
      openShifts: open.length,
      shiftIds: drafts.map((d) => d.id),
      publishedAt: at.toISOString(),
    };
    recordEvent(tem, { type: 'schedule.published', aggregateType: 'schedule', aggregateId: body.locationId, locationId: body.locationId, object: result, actor: caller.principal });
    for (const d of open) {
      recordEvent(tem, { type: 'open_shift.posted', aggregateType: 'shift', aggregateId: d.id, locationId: d.locationId, object: shiftDto(d, zone), actor: caller.principal });
    }
    return result;
  });
}

/** 409 naming every pair of shifts of one employee that would overlap once these drafts are published. */
async function refuseDoubleBooking(em: EntityManager, drafts: Shift[], employeeIds: string[], zone: string): Promise<void> {
  if (employeeIds.length === 0) return;
  const first = new Date(Math.min(...drafts.map((d) => new Date(d.start).getTime())));
  const last = new Date(Math.max(...drafts.map((d) => new Date(d.end).getTime())));
  const published = await findPlain(em, Shift, { employeeId: { $in: employeeIds }, status: 'published', start: { $lt: last }, end: { $gt: first } });
  const names = (await resolveEmployees(em, 'scheduling', employeeIds.map((employeeId) => ({ employeeId })), { payRates: false })).byId;
  const clashes: { path: string; message: string }[] = [];
  for (const employeeId of employeeIds) {
    const mine = [...drafts.filter((d) => d.employeeId === employeeId), ...published.filter((p) => p.employeeId === employeeId)].sort((a, b) => new Date(a.start).getTime() - new Date(b.start).getTime());
    for (let i = 0; i < mine.length; i++) {
      for (let j = i + 1; j < mine.length && new Date(mine[j].start) < new Date(mine[i].end); j++) {
        const [a, b] = [mine[i], mine[j]];
        const e = names.get(employeeId);
        const who = e ? `${e.firstName} ${e.lastName}`.trim() : employeeId;
        const draft = a.status === 'draft' ? a : b;
        const other = draft === a ? b : a;
        clashes.push({
          path: `shifts.${draft.id}`,
          message: `${who} would work shift ${draft.id} (${span(draft, zone)}) and shift ${other.id} (${span(other, zone)}${other.locationId !== draft.locationId ? ` at location ${other.locationId}` : ''}${other.status === 'published' ? ', published' : ''}) at once.`,
        });
      }
    }
  }
  if (clashes.length > 0) throw new Conflict(`Publishing would double-book ${clashes.length === 1 ? 'an employee' : 'employees'}: ${clashes.map((c) => c.message).join(' ')} Move or reassign them first.`, clashes);
}

/** What keeps an employee from taking an open shift (the rest of the warnings still answer with it). */
const REFUSING: ReadonlySet<WarningCode> = new Set(['position_not_held', 'location_not_worked', 'overlapping_shift', 'time_off', 'employee_not_active']);

/**
 * `POST /shifts/{id}:claim` and `POST /me/shifts/{id}:claim`: a published open shift that has not
 * started goes to an eligible employee (holds the position, works at the location, free then, not on
 * approved time off); `shift.changed`. Refusals name every reason.
 */
export async function claimShift(em: EntityManager, id: string, employeeId: string, caller: ShiftCaller, self: boolean) {
  const employee = (await resolveEmployees(em, 'scheduling', [{ employeeId }], { payRates: false })).byId.get(employeeId);
  if (!employee) throw new ValidationError([{ path: 'employeeId', message: `No employee ${employeeId}.` }]);
  return em.transactional(async (tem) => {
    await lockForTransaction(tem, employeeKey(employeeId));
    const s = await tem.findOne(Shift, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const mayWorkThere = (e: ReplicaEmployee, locationId: string) => e.homeLocationId === locationId || e.locationIds.includes(locationId);
    // an employee sees the open shifts of their own locations only (elsewhere: no such shift for them)
    if (!s || (self && !mayWorkThere(employee, s.locationId))) throw new NotFound('shift', id);
    // a manager gives an open shift to an employee the reach covers (its location, or the employee in an employee set)
    if (!self) assertEmployeeRecordInReach(caller.reach, s.locationId, employeeId);
    if (s.status !== 'published') throw new Conflict(`Shift ${id} is ${s.status}; only a published open shift is claimed.`);
    if (s.employeeId !== null) throw new Conflict(`Shift ${id} is already worked by ${s.employeeId === employeeId ? 'this employee' : 'another employee'}.`);
    if (new Date(s.start).getTime() <= clockNow().getTime()) throw new Conflict(`Shift ${id} has started; it is no longer claimed.`);
    const zone = (await zonesOf(tem, [s.locationId])).get(s.locationId) ?? 'UTC';
    s.employeeId = employeeId;
    const warnings = await warningsFor(tem, s, zone, await caller.settings(s.locationId), employee);
    const refusals = warnings.filter((w) => REFUSING.has(w.code));
    if (refusals.length > 0) throw new Conflict(`Shift ${id} cannot go to ${self ? 'you' : `employee ${employeeId}`}: ${refusals.map((w) => w.message).join(' ')}`);
    s.version += 1;
    s.updatedAt = clockNow();
    await tem.flush();
    const view = shiftDto(s, zone);
    recordEvent(tem, { type: 'shift.changed', aggregateType: 'shift', aggregateId: s.id, locationId: s.locationId, object: view, previous: { employeeId: null }, actor: caller.principal });
    return { ...view, warnings };
  });
}

/** `GET /me/shifts`: the employee's published shifts. */
export async function myShifts(em: EntityManager, employeeId: string, f: { from?: string; to?: string }, page: PageRequest) {
  const rows = await findPage(em, Shift, [{ employeeId }, { status: 'published' }, f.from && { end: { $gt: new Date(f.from) } }, f.to && { start: { $lt: new Date(f.to) } }], page);
  const zones = await zonesOf(em, rows.data.map((r) => r.locationId));
  return { ...rows, data: rows.data.map((r) => shiftDto(r, zones.get(r.locationId) ?? 'UTC')) };
}

/** `GET /me/open-shifts`: published open shifts not started, at the employee's locations, for positions they hold. */
export async function myOpenShifts(em: EntityManager, employeeId: string, f: { from?: string; to?: string }, page: PageRequest) {
  const e = (await resolveEmployees(em, 'scheduling', [{ employeeId }], { payRates: false })).byId.get(employeeId);
  if (!e) return { data: [], nextCursor: null, hasMore: false };
  const locations = [...new Set([e.homeLocationId, ...e.locationIds])];
  const notBefore = f.from && new Date(f.from) > clockNow() ? new Date(f.from) : clockNow();
  const rows = await findPage(
    em,
    Shift,
    [{ employeeId: null }, { status: 'published' }, { locationId: { $in: locations } }, { position: { $in: e.positions.length > 0 ? e.positions : [''] } }, { start: { $gt: notBefore } }, f.to && { start: { $lt: new Date(f.to) } }],
    page,
  );
  const zones = await zonesOf(em, rows.data.map((r) => r.locationId));
  return { ...rows, data: rows.data.map((r) => shiftDto(r, zones.get(r.locationId) ?? 'UTC')) };
}
