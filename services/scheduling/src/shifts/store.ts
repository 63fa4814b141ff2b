import { LockMode } from '@mikro-orm/core';
import { DateTime } from 'luxon';
import {
  assertEmployeeRecordInReach,
  employeeScopeCondition,
  type EmployeeRecordScope,
  changedFields,
  Conflict,
  findPage,
  findPlain,
  lockForTransaction,
  mapPage,
  newId,
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
import { ShiftSwap } from '../swaps/entities';
import { shiftDto, type ShiftView } from './dto';
import { shiftWarnings, type ShiftWarning } from './warnings';
import { localDatesOf } from '../availability/windows';
import { Availability } from '../availability/entities';
import { ApprovedTimeOff } from '../time-off/entities';
import type { SchedulingSettings } from '../settings/company-settings';

const DAY_MS = 86_400_000;

/** Held on an employee while their shifts are checked for double-booking and changed (publish, claim, swap), in one order. */
export const employeeKey = (id: string) => `scheduling.employee ${id}`;

/** What a write needs from outside its transaction: who asks, how far they reach, and the settings of a location (read on demand). */
export interface ShiftCaller {
  principal: Principal;
  reach: ReachSet;
  settings(locationId: string): Promise<SchedulingSettings>;
  checkVersion?(v: number): void;
}

export interface ShiftFields {
  locationId: string;
  position: string;
  employeeId: string | null;
  start: string;
  end: string;
  breakMinutes: number;
  notes: string | null;
  externalId?: string | null;
}

/** The zones of locations (scheduling's replica, read through from organization for one it lacks). */
export async function zonesOf(em: EntityManager, locationIds: string[]): Promise<Map<string, string>> {
  const map = await resolveLocations(em, 'scheduling', [...new Set(locationIds)].map((locationId) => ({ locationId })));
  return new Map([...map.byId.values()].map((l) => [l.id, l.timezone]));
}

async function viewsOf(em: EntityManager, rows: Shift[]): Promise<ShiftView[]> {
  const zones = await zonesOf(em, rows.map((r) => r.locationId));
  return rows.map((r) => shiftDto(r, zones.get(r.locationId) ?? 'UTC'));
}

export async function shiftView(em: EntityManager, s: Shift): Promise<ShiftView> {
  return (await viewsOf(em, [s]))[0];
}

/**
 * A location a new or moved shift may use: known, not archived (supplement: an archived location
 * takes no new shifts), in reach (the location, or the shift's employee in an employee set).
 */
async function usableLocation(em: EntityManager, locationId: string, reach: ReachSet, employeeId: string | null): Promise<string> {
  const loc = (await resolveLocations(em, 'scheduling', [{ locationId }])).byId.get(locationId);
  if (!loc) throw new ValidationError([{ path: 'locationId', message: `No location ${locationId}.` }]);
  assertEmployeeRecordInReach(reach, locationId, employeeId);
  if (loc.status === 'archived') throw new ValidationError([{ path: 'locationId', message: `Location ${locationId} is archived; it takes no new shifts.` }]);
  return loc.timezone;
}

async function knownEmployee(em: EntityManager, employeeId: string, path = 'employeeId'): Promise<ReplicaEmployee> {
  const e = (await resolveEmployees(em, 'scheduling', [{ employeeId }], { payRates: false })).byId.get(employeeId);
  if (!e) throw new ValidationError([{ path, message: `No employee ${employeeId}.` }]);
  return e;
}

/** The warnings of a shift given to an employee, from their availability, time off and other shifts around it. */
export async function warningsFor(em: EntityManager, s: Shift, zone: string, settings: SchedulingSettings, known?: ReplicaEmployee): Promise<ShiftWarning[]> {
  if (!s.employeeId) return [];
  const e = known ?? (await knownEmployee(em, s.employeeId));
  const start = new Date(s.start).getTime();
  const end = new Date(s.end).getTime();
  // the workweek around the shift and a day either side: overlap, rest and weekly hours
  const from = new Date(start - 8 * DAY_MS);
  const to = new Date(end + 8 * DAY_MS);
  // one after another: inside a transaction they share one connection
  const others = await findPlain(em, Shift, { employeeId: e.id, status: { $ne: 'archived' }, start: { $lt: to }, end: { $gt: from }, id: { $ne: s.id } });
  const windows = await findPlain(em, Availability, { employeeId: e.id, status: 'active' });
  const timeOff = await findPlain(em, ApprovedTimeOff, {
    employeeId: e.id,
    status: 'approved',
    startDate: { $lte: DateTime.fromMillis(end, { zone }).toISODate()! },
    endDate: { $gte: DateTime.fromMillis(start, { zone }).toISODate()! },
  });
  const homeZones = await zonesOf(em, [e.homeLocationId]);
  return shiftWarnings({
    shift: { id: s.id, locationId: s.locationId, position: s.position, start, end, breakMinutes: s.breakMinutes },
    zone,
    employee: { id: e.id, name: `${e.firstName} ${e.lastName}`.trim(), status: e.status, positions: e.positions, locationIds: e.locationIds, homeLocationId: e.homeLocationId, terminationDate: e.terminationDate },
    availability: windows,
    availabilityZone: homeZones.get(e.homeLocationId) ?? zone,
    otherShifts: others.map((o) => ({ id: o.id, locationId: o.locationId, start: new Date(o.start).getTime(), end: new Date(o.end).getTime(), breakMinutes: o.breakMinutes })),
    timeOff,
    settings,
  });
}

function record(em: EntityManager, type: string, view: ShiftView, actor: Principal | null, previous?: Record<string, unknown>) {
  recordEvent(em, { type, aggregateType: 'shift', aggregateId: view.id, locationId: view.locationId, object: view, previous, actor });
}

/** A published shift that has (just) no employee is posted as open (`open_shift.posted`). */
function postIfOpen(em: EntityManager, view: ShiftView, wasOpen: boolean, actor: Principal | null) {
  if (view.status === 'published' && view.employeeId === null && !wasOpen) record(em, 'open_shift.posted', view, actor);
}

/** `POST /shifts`: a draft shift (open without an employee); `shift.changed`; answered with its warnings. */
export async function createShift(em: EntityManager, fields: ShiftFields, caller: ShiftCaller) {
  const zone = await usableLocation(em, fields.locationId, caller.reach, fields.employeeId ?? null);
  const employee = fields.employeeId ? await knownEmployee(em, fields.employeeId) : undefined;
  const settings = employee ? await caller.settings(fields.locationId) : null;
  return em.transactional(async (tem) => {
    if (fields.externalId) {
      await lockForTransaction(tem, `scheduling.shifts ${JSON.stringify(fields.externalId)}`);
      const taken = await tem.findOne(Shift, { externalId: fields.externalId });
      if (taken) throw new Conflict(`Shift ${taken.id} already has externalId ${fields.externalId}; PUT /shifts/external/{externalId} replaces it.`, [{ path: 'externalId', message: 'Already used by another shift.' }]);
    }
    const at = clockNow();
    const s = tem.create(Shift, {
      id: newId('shift'),
      externalId: fields.externalId ?? null,
      locationId: fields.locationId,
      position: fields.position,
      employeeId: fields.employeeId,
      start: new Date(fields.start),
      end: new Date(fields.end),
      breakMinutes: fields.breakMinutes,
      notes: fields.notes,
      status: 'draft',
      flags: [],
      publishedAt: null,
      version: 1,
      createdAt: at,
      updatedAt: at,
    });
    await tem.flush();
    const view = shiftDto(s, zone);
    record(tem, 'shift.changed', view, caller.principal);
    const warnings = settings ? await warningsFor(tem, s, zone, settings, employee) : [];
    return { ...view, warnings };
  });
}

async function lockedShift(em: EntityManager, by: { id: string } | { externalId: string }, reach: ReachSet): Promise<Shift | null> {
  const s = await em.findOne(Shift, by, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (s) assertEmployeeRecordInReach(reach, s.locationId, s.employeeId);
  return s;
}

/** Applies changed fields to a shift that is not archived (`PATCH`, `PUT` by externalId); `shift.changed`, and `open_shift.posted` when a published shift is left open. */
async function changeShift(em: EntityManager, s: Shift, change: Partial<ShiftFields>, caller: ShiftCaller) {
  if (s.status === 'archived') throw new Conflict(`Shift ${s.id} is archived; it no longer changes.`);
  caller.checkVersion?.(s.version);
  const locationId = change.locationId ?? s.locationId;
  const employeeId = change.employeeId === undefined ? s.employeeId : change.employeeId;
  // the shift as changed must be in reach too (moved, or given to another employee)
  if (locationId === s.locationId && (employeeId ?? null) !== s.employeeId) assertEmployeeRecordInReach(caller.reach, locationId, employeeId);
  const zone = locationId !== s.locationId ? await usableLocation(em, locationId, caller.reach, employeeId ?? null) : ((await zonesOf(em, [locationId])).get(locationId) ?? 'UTC');
  const employee = employeeId ? await knownEmployee(em, employeeId) : undefined;
  const start = change.start ? new Date(change.start) : s.start;
  const end = change.end ? new Date(change.end) : s.end;
  if (!(end.getTime() > new Date(start).getTime())) throw new ValidationError([{ path: change.end ? 'end' : 'start', message: 'The shift must end after it starts.' }]);
  if (end.getTime() - new Date(start).getTime() > DAY_MS) throw new ValidationError([{ path: change.end ? 'end' : 'start', message: 'A shift lasts at most 24 hours.' }]);
  const before = shiftDto(s, zone);
  const wasOpen = s.employeeId === null;
  s.locationId = locationId;
  if (change.position !== undefined) s.position = change.position;
  s.employeeId = employeeId ?? null;
  s.start = start;
  s.end = end;
  if (change.breakMinutes !== undefined) s.breakMinutes = change.breakMinutes;
  if (change.notes !== undefined) s.notes = change.notes;
  const previous = changedFields(before, shiftDto(s, zone), ['version', 'updatedAt', 'localStart', 'localEnd', 'paidHours']);
  if (Object.keys(previous).length === 0) return { ...before, warnings: employee ? await warningsFor(em, s, zone, await caller.settings(locationId), employee) : [] };
  s.version += 1;
  s.updatedAt = clockNow();
  await em.flush();
  const view = shiftDto(s, zone);
  record(em, 'shift.changed', view, caller.principal, previous);
  postIfOpen(em, view, wasOpen, caller.principal);
  const warnings = employee ? await warningsFor(em, s, zone, await caller.settings(locationId), employee) : [];
  return { ...view, warnings };
}

/** `PATCH /shifts/{id}` (If-Match honoured). */
export async function updateShift(em: EntityManager, id: string, patch: Partial<ShiftFields>, caller: ShiftCaller) {
  return em.transactional(async (tem) => {
    const s = await lockedShift(tem, { id }, caller.reach);
    if (!s) throw new NotFound('shift', id);
    return changeShift(tem, s, patch, caller);
  });
}

/** `PUT /shifts/external/{externalId}`: creates the shift (201) or replaces the one with that externalId (200). */
export async function putShiftByExternalId(em: EntityManager, externalId: string, fields: ShiftFields, caller: ShiftCaller): Promise<{ status: 200 | 201; body: ShiftView & { warnings: ShiftWarning[] } }> {
  const existing = await em.transactional(async (tem) => {
    await lockForTransaction(tem, `scheduling.shifts ${JSON.stringify(externalId)}`);
    const s = await lockedShift(tem, { externalId }, caller.reach);
    if (!s) return null;
    return { body: await changeShift(tem, s, { ...fields, employeeId: fields.employeeId ?? null, notes: fields.notes ?? null }, caller) };
  });
  if (existing) return { status: 200, body: existing.body };
  return { status: 201, body: await createShift(em, { ...fields, externalId }, caller) };
}

/**
 * `DELETE /shifts/{id}` (supplement: remove a draft, archive a published shift; the employee is
 * notified through `shift.changed`). Both end `archived`: a removed draft stays readable as such, so a
 * system that saw it created sees it gone. Archiving twice answers the archived shift.
 */
export async function removeShift(em: EntityManager, id: string, caller: ShiftCaller) {
  return em.transactional(async (tem) => {
    const s = await lockedShift(tem, { id }, caller.reach);
    if (!s) throw new NotFound('shift', id);
    if (s.status === 'archived') return shiftView(tem, s);
    caller.checkVersion?.(s.version);
    const before = await shiftView(tem, s);
    // supplement: a pending swap of a removed shift is cancelled
    for (const w of await tem.find(ShiftSwap, { shiftId: s.id, status: 'pending' })) Object.assign(w, { status: 'cancelled', version: w.version + 1, updatedAt: clockNow() });
    s.status = 'archived';
    s.version += 1;
    s.updatedAt = clockNow();
    await tem.flush();
    const view = await shiftView(tem, s);
    record(tem, 'shift.changed', view, caller.principal, { status: before.status });
    return view;
  });
}

export interface ShiftFilter {
  scope?: EmployeeRecordScope;
  employeeId?: string;
  position?: string;
  status?: string;
  open?: boolean;
  from?: string;
  to?: string;
}

/** A page of shifts (archived ones only when asked for by status). */
export async function listShifts(em: EntityManager, f: ShiftFilter, page: PageRequest) {
  const rows = await findPage(
    em,
    Shift,
    [
      employeeScopeCondition<Shift>(f.scope, { location: (ids) => ({ locationId: ids }), employee: (ids) => ({ employeeId: ids }) }),
      f.employeeId && { employeeId: f.employeeId },
      f.position && { position: f.position },
      f.status ? { status: f.status as never } : { status: { $ne: 'archived' as const } },
      f.open === true && { employeeId: null },
      f.open === false && { employeeId: { $ne: null } },
      f.from && { end: { $gt: new Date(f.from) } },
      f.to && { start: { $lt: new Date(f.to) } },
    ],
    page,
  );
  const views = await viewsOf(em, rows.data);
  return mapPage({ ...rows, data: views }, (v) => v);
}

export async function getShift(em: EntityManager, by: { id: string } | { externalId: string }, reach: ReachSet): Promise<ShiftView> {
  const s = await em.findOne(Shift, by);
  if (!s) throw new NotFound('id' in by ? 'shift' : 'shift with externalId', 'id' in by ? by.id : by.externalId);
  assertEmployeeRecordInReach(reach, s.locationId, s.employeeId);
  return shiftView(em, s);
}

/**
 * A terminated employee's shifts on days after their last day (local date at each shift's location)
 * become open: `shift.changed` for each, `open_shift.posted` for each published one (by the system).
 * Run again, it finds none left.
 */
export async function openShiftsAfter(em: EntityManager, employeeId: string, lastDay: string): Promise<void> {
  // from the last day's UTC midnight: a day's margin for zones behind UTC, the local date decides
  const shifts = await em.find(Shift, { employeeId, status: { $ne: 'archived' }, start: { $gte: DateTime.fromISO(lastDay, { zone: 'UTC' }).toJSDate() } });
  const zones = await zonesOf(em, shifts.map((s) => s.locationId));
  const at = clockNow();
  for (const s of shifts) {
    const zone = zones.get(s.locationId) ?? 'UTC';
    if (DateTime.fromJSDate(new Date(s.start), { zone }).toISODate()! <= lastDay) continue;
    s.employeeId = null;
    s.version += 1;
    s.updatedAt = at;
    await em.flush();
    const view = shiftDto(s, zone);
    record(em, 'shift.changed', view, null, { employeeId });
    postIfOpen(em, view, false, null);
  }
}

/**
 * Approved time off flags the employee's shifts (not archived) on its local days at their locations;
 * its cancel lifts the flags. `shift.changed` for each shift whose flags changed (by the system).
 */
export async function flagTimeOffShifts(em: EntityManager, t: { id: string; employeeId: string; startDate: string; endDate: string; partialHours: string | null; status: 'approved' | 'cancelled' }): Promise<void> {
  // a day's margin either side of UTC: the local date decides
  const from = new Date(DateTime.fromISO(t.startDate, { zone: 'UTC' }).minus({ days: 1 }).toMillis());
  const to = new Date(DateTime.fromISO(t.endDate, { zone: 'UTC' }).plus({ days: 2 }).toMillis());
  const shifts = await em.find(Shift, { employeeId: t.employeeId, status: { $ne: 'archived' }, start: { $lt: to }, end: { $gt: from } });
  const zones = await zonesOf(em, shifts.map((s) => s.locationId));
  const span = t.startDate === t.endDate ? t.startDate : `${t.startDate} to ${t.endDate}`;
  const at = clockNow();
  for (const s of shifts) {
    const zone = zones.get(s.locationId) ?? 'UTC';
    const days = localDatesOf(new Date(s.start).getTime(), new Date(s.end).getTime(), zone);
    const touches = t.status === 'approved' && days.some((d) => t.startDate <= d && d <= t.endDate);
    const others = (s.flags ?? []).filter((f) => f.sourceId !== t.id);
    const flags = touches ? [...others, { code: 'time_off' as const, message: `Time off approved ${span}${t.partialHours ? ` (${t.partialHours} hours)` : ''} (request ${t.id}).`, sourceId: t.id }] : others;
    if (JSON.stringify(flags) === JSON.stringify(s.flags ?? [])) continue;
    const before = s.flags ?? [];
    s.flags = flags;
    s.version += 1;
    s.updatedAt = at;
    await em.flush();
    record(em, 'shift.changed', shiftDto(s, zone), null, { flags: before });
  }
}
