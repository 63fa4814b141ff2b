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
  resolveEmployees,
  resolveLocations,
  ValidationError,
  type PageRequest,
  type ReplicaEmployee,
  type Work,
} from '@bop/shared';
import { Shift } from './entities';
import { shiftDto } from './dto';
import { employeeKey, warningsFor, zonesOf, type SettingsOf } from './store';
import type { WarningCode } from './warnings';

const span = (s: Pick<Shift, 'start' | 'end'>, zone: string) =>
  `${DateTime.fromJSDate(new Date(s.start), { zone }).toFormat('ccc d LLL HH:mm')}–${DateTime.fromJSDate(new Date(s.end), { zone }).toFormat('HH:mm')}`;

/**
 * `POST /schedules:publish`: every draft shift of the location starting within [from, to] (local
 * dates) is published; refused (409, naming each) while a draft would double-book an employee with
 * another shift being published or already published anywhere. `schedule.published`, and
 * `open_shift.posted` for each shift published without an employee.
 */
export async function publishSchedule(w: Work, body: { locationId: string; from: string; to: string }) {
  const { em } = w;
  const loc = (await resolveLocations(w, [{ locationId: body.locationId }])).byId.get(body.locationId);
  if (!loc) throw new ValidationError([{ path: 'locationId', message: `No location ${body.locationId}.` }]);
  assertLocationInReach(w.reach(), body.locationId);
  const zone = loc.timezone;
  const from = DateTime.fromISO(body.from, { zone }).startOf('day').toJSDate();
  const to = DateTime.fromISO(body.to, { zone }).plus({ days: 1 }).startOf('day').toJSDate();
  const drafts = await em.find(Shift, { locationId: body.locationId, status: 'draft', start: { $gte: from, $lt: to } }, { orderBy: { start: 'asc', id: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE });
  const employeeIds = [...new Set(drafts.map((d) => d.employeeId).filter((e): e is string => e !== null))];
  if (employeeIds.length > 0) await lockForTransaction(em, employeeIds.map((id) => employeeKey(w, id)));
  await refuseDoubleBooking(w, drafts, employeeIds, zone);
  const at = w.now;
  for (const d of drafts) {
    d.status = 'published';
    d.publishedAt = at;
    d.version += 1;
    d.updatedAt = at;
  }
  await em.flush();
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
  w.emit({ type: 'schedule.published', aggregateType: 'schedule', aggregateId: body.locationId, locationId: body.locationId, object: result });
  for (const d of open) {
    w.emit({ type: 'open_shift.posted', aggregateType: 'shift', aggregateId: d.id, locationId: d.locationId, object: shiftDto(d, zone) });
  }
  return result;
}

/** 409 naming every pair of shifts of one employee that would overlap once these drafts are published. */
async function refuseDoubleBooking(w: Work, drafts: Shift[], employeeIds: string[], zone: string): Promise<void> {
  const { em } = w;
  if (employeeIds.length === 0) return;
  const first = new Date(Math.min(...drafts.map((d) => new Date(d.start).getTime())));
  const last = new Date(Math.max(...drafts.map((d) => new Date(d.end).getTime())));
  const published = await findPlain(em, Shift, { employeeId: { $in: employeeIds }, status: 'published', start: { $lt: last }, end: { $gt: first } });
  const names = (await resolveEmployees(w, employeeIds.map((employeeId) => ({ employeeId })), { payRates: false })).byId;
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
export async function claimShift(w: Work, id: string, employeeId: string, settingsOf: SettingsOf, self: boolean) {
  const { em } = w;
  const employee = (await resolveEmployees(w, [{ employeeId }], { payRates: false })).byId.get(employeeId);
  if (!employee) throw new ValidationError([{ path: 'employeeId', message: `No employee ${employeeId}.` }]);
  await lockForTransaction(em, employeeKey(w, employeeId));
  const s = await em.findOne(Shift, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  const mayWorkThere = (e: ReplicaEmployee, locationId: string) => e.homeLocationId === locationId || e.locationIds.includes(locationId);
  // an employee sees the open shifts of their own locations only (elsewhere: no such shift for them)
  if (!s || (self && !mayWorkThere(employee, s.locationId))) throw new NotFound('shift', id);
  // a manager gives an open shift to an employee the reach covers (its location, or the employee in an employee set)
  if (!self) assertEmployeeRecordInReach(w.reach(), s.locationId, employeeId);
  if (s.status !== 'published') throw new Conflict(`Shift ${id} is ${s.status}; only a published open shift is claimed.`);
  if (s.employeeId !== null) throw new Conflict(`Shift ${id} is already worked by ${s.employeeId === employeeId ? 'this employee' : 'another employee'}.`);
  if (new Date(s.start).getTime() <= w.now.getTime()) throw new Conflict(`Shift ${id} has started; it is no longer claimed.`);
  const zone = (await zonesOf(w, [s.locationId])).get(s.locationId) ?? 'UTC';
  s.employeeId = employeeId;
  const warnings = await warningsFor(w, s, zone, await settingsOf(s.locationId), employee);
  const refusals = warnings.filter((x) => REFUSING.has(x.code));
  if (refusals.length > 0) throw new Conflict(`Shift ${id} cannot go to ${self ? 'you' : `employee ${employeeId}`}: ${refusals.map((x) => x.message).join(' ')}`);
  s.version += 1;
  s.updatedAt = w.now;
  await em.flush();
  const view = shiftDto(s, zone);
  w.emit({ type: 'shift.changed', aggregateType: 'shift', aggregateId: s.id, locationId: s.locationId, object: view, previous: { employeeId: null } });
  return { ...view, warnings };
}

/** `GET /me/shifts`: the employee's published shifts. */
export async function myShifts(w: Work, employeeId: string, f: { from?: string; to?: string }, page: PageRequest) {
  const rows = await findPage(w.em, Shift, [{ employeeId }, { status: 'published' }, f.from && { end: { $gt: new Date(f.from) } }, f.to && { start: { $lt: new Date(f.to) } }], page);
  const zones = await zonesOf(w, rows.data.map((r) => r.locationId));
  return { ...rows, data: rows.data.map((r) => shiftDto(r, zones.get(r.locationId) ?? 'UTC')) };
}

/** `GET /me/open-shifts`: published open shifts not started, at the employee's locations, for positions they hold. */
export async function myOpenShifts(w: Work, employeeId: string, f: { from?: string; to?: string }, page: PageRequest) {
  const e = (await resolveEmployees(w, [{ employeeId }], { payRates: false })).byId.get(employeeId);
  if (!e) return { data: [], nextCursor: null, hasMore: false };
  const locations = [...new Set([e.homeLocationId, ...e.locationIds])];
  const notBefore = f.from && new Date(f.from) > w.now ? new Date(f.from) : w.now;
  const rows = await findPage(
    w.em,
    Shift,
    [{ employeeId: null }, { status: 'published' }, { locationId: { $in: locations } }, { position: { $in: e.positions.length > 0 ? e.positions : [''] } }, { start: { $gt: notBefore } }, f.to && { start: { $lt: new Date(f.to) } }],
    page,
  );
  const zones = await zonesOf(w, rows.data.map((r) => r.locationId));
  return { ...rows, data: rows.data.map((r) => shiftDto(r, zones.get(r.locationId) ?? 'UTC')) };
}
