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
  resolveEmployees,
  resolveLocations,
  systemPrincipal,
  ValidationError,
  type PageRequest,
  type Principal,
  type ReplicaEmployee,
  type Work,
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
export const employeeKey = (w: Work, id: string) => `${w.schema}.employee ${id}`;

/** The settings of a location (read on demand, from identity and time: settings/company-settings.ts). */
export type SettingsOf = (locationId: string) => Promise<SchedulingSettings>;

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
export async function zonesOf(w: Work, locationIds: string[]): Promise<Map<string, string>> {
  const map = await resolveLocations(w, [...new Set(locationIds)].map((locationId) => ({ locationId })));
  return new Map([...map.byId.values()].map((l) => [l.id, l.timezone]));
}

async function viewsOf(w: Work, rows: Shift[]): Promise<ShiftView[]> {
  const zones = await zonesOf(w, rows.map((r) => r.locationId));
  return rows.map((r) => shiftDto(r, zones.get(r.locationId) ?? 'UTC'));
}

export async function shiftView(w: Work, s: Shift): Promise<ShiftView> {
  return (await viewsOf(w, [s]))[0];
}

/**
 * A location a new or moved shift may use: known, not archived (supplement: an archived location
 * takes no new shifts), in reach (the location, or the shift's employee in an employee set).
 */
async function usableLocation(w: Work, locationId: string, employeeId: string | null): Promise<string> {
  const loc = (await resolveLocations(w, [{ locationId }])).byId.get(locationId);
  if (!loc) throw new ValidationError([{ path: 'locationId', message: `No location ${locationId}.` }]);
  assertEmployeeRecordInReach(w.reach(), locationId, employeeId);
  if (loc.status === 'archived') throw new ValidationError([{ path: 'locationId', message: `Location ${locationId} is archived; it takes no new shifts.` }]);
  return loc.timezone;
}

async function knownEmployee(w: Work, employeeId: string, path = 'employeeId'): Promise<ReplicaEmployee> {
  const e = (await resolveEmployees(w, [{ employeeId }], { payRates: false })).byId.get(employeeId);
  if (!e) throw new ValidationError([{ path, message: `No employee ${employeeId}.` }]);
  return e;
}

/** The warnings of a shift given to an employee, from their availability, time off and other shifts around it. */
export async function warningsFor(w: Work, s: Shift, zone: string, settings: SchedulingSettings, known?: ReplicaEmployee): Promise<ShiftWarning[]> {
  if (!s.employeeId) return [];
  const { em } = w;
  const e = known ?? (await knownEmployee(w, s.employeeId));
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
  const homeZones = await zonesOf(w, [e.homeLocationId]);
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

/** A shift's event; `as`: an actor other than the unit's (the system's, when a consumer's work changes shifts). */
function record(w: Work, type: string, view: ShiftView, previous?: Record<string, unknown>, as?: { actor: Principal }) {
  w.emit({ type, aggregateType: 'shift', aggregateId: view.id, locationId: view.locationId, object: view, previous }, as);
}

/** A published shift that has (just) no employee is posted as open (`open_shift.posted`). */
function postIfOpen(w: Work, view: ShiftView, wasOpen: boolean, as?: { actor: Principal }) {
  if (view.status === 'published' && view.employeeId === null && !wasOpen) record(w, 'open_shift.posted', view, undefined, as);
}

/** `POST /shifts`: a draft shift (open without an employee); `shift.changed`; answered with its warnings. */
export async function createShift(w: Work, fields: ShiftFields, settingsOf: SettingsOf) {
  const { em } = w;
  const zone = await usableLocation(w, fields.locationId, fields.employeeId ?? null);
  const employee = fields.employeeId ? await knownEmployee(w, fields.employeeId) : undefined;
  const settings = employee ? await settingsOf(fields.locationId) : null;
  if (fields.externalId) {
    await lockForTransaction(em, `${w.schema}.shifts ${JSON.stringify(fields.externalId)}`);
    const taken = await em.findOne(Shift, { externalId: fields.externalId });
    if (taken) throw new Conflict(`Shift ${taken.id} already has externalId ${fields.externalId}; PUT /shifts/external/{externalId} replaces it.`, [{ path: 'externalId', message: 'Already used by another shift.' }]);
  }
  const at = w.now;
  const s = em.create(Shift, {
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
  await em.flush();
  const view = shiftDto(s, zone);
  record(w, 'shift.changed', view);
  const warnings = settings ? await warningsFor(w, s, zone, settings, employee) : [];
  return { ...view, warnings };
}

async function lockedShift(w: Work, by: { id: string } | { externalId: string }): Promise<Shift | null> {
  const s = await w.em.findOne(Shift, by, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (s) assertEmployeeRecordInReach(w.reach(), s.locationId, s.employeeId);
  return s;
}

/** Applies changed fields to a shift that is not archived (`PATCH`, `PUT` by externalId); `shift.changed`, and `open_shift.posted` when a published shift is left open. */
async function changeShift(w: Work, s: Shift, change: Partial<ShiftFields>, settingsOf: SettingsOf) {
  if (s.status === 'archived') throw new Conflict(`Shift ${s.id} is archived; it no longer changes.`);
  w.checkVersion(s.version);
  const locationId = change.locationId ?? s.locationId;
  const employeeId = change.employeeId === undefined ? s.employeeId : change.employeeId;
  // the shift as changed must be in reach too (moved, or given to another employee)
  if (locationId === s.locationId && (employeeId ?? null) !== s.employeeId) assertEmployeeRecordInReach(w.reach(), locationId, employeeId);
  const zone = locationId !== s.locationId ? await usableLocation(w, locationId, employeeId ?? null) : ((await zonesOf(w, [locationId])).get(locationId) ?? 'UTC');
  const employee = employeeId ? await knownEmployee(w, employeeId) : undefined;
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
  if (Object.keys(previous).length === 0) return { ...before, warnings: employee ? await warningsFor(w, s, zone, await settingsOf(locationId), employee) : [] };
  s.version += 1;
  s.updatedAt = w.now;
  await w.em.flush();
  const view = shiftDto(s, zone);
  record(w, 'shift.changed', view, previous);
  postIfOpen(w, view, wasOpen);
  const warnings = employee ? await warningsFor(w, s, zone, await settingsOf(locationId), employee) : [];
  return { ...view, warnings };
}

/** `PATCH /shifts/{id}` (If-Match honoured). */
export async function updateShift(w: Work, id: string, patch: Partial<ShiftFields>, settingsOf: SettingsOf) {
  const s = await lockedShift(w, { id });
  if (!s) throw new NotFound('shift', id);
  return changeShift(w, s, patch, settingsOf);
}

/** `PUT /shifts/external/{externalId}`: creates the shift (201) or replaces the one with that externalId (200). */
export async function putShiftByExternalId(w: Work, externalId: string, fields: ShiftFields, settingsOf: SettingsOf): Promise<{ status: 200 | 201; body: ShiftView & { warnings: ShiftWarning[] } }> {
  await lockForTransaction(w.em, `${w.schema}.shifts ${JSON.stringify(externalId)}`);
  const s = await lockedShift(w, { externalId });
  if (s) return { status: 200, body: await changeShift(w, s, { ...fields, employeeId: fields.employeeId ?? null, notes: fields.notes ?? null }, settingsOf) };
  return { status: 201, body: await createShift(w, { ...fields, externalId }, settingsOf) };
}

/**
 * `DELETE /shifts/{id}` (supplement: remove a draft, archive a published shift; the employee is
 * notified through `shift.changed`). Both end `archived`: a removed draft stays readable as such, so a
 * system that saw it created sees it gone. Archiving twice answers the archived shift.
 */
export async function removeShift(w: Work, id: string) {
  const { em } = w;
  const s = await lockedShift(w, { id });
  if (!s) throw new NotFound('shift', id);
  if (s.status === 'archived') return shiftView(w, s);
  w.checkVersion(s.version);
  const before = await shiftView(w, s);
  // supplement: a pending swap of a removed shift is cancelled
  for (const sw of await em.find(ShiftSwap, { shiftId: s.id, status: 'pending' })) Object.assign(sw, { status: 'cancelled', version: sw.version + 1, updatedAt: w.now });
  s.status = 'archived';
  s.version += 1;
  s.updatedAt = w.now;
  await em.flush();
  const view = await shiftView(w, s);
  record(w, 'shift.changed', view, { status: before.status });
  return view;
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
export async function listShifts(w: Work, f: ShiftFilter, page: PageRequest & { updatedSince?: string }) {
  const rows = await findPage(
    w.em,
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
  const views = await viewsOf(w, rows.data);
  return mapPage({ ...rows, data: views }, (v) => v);
}

export async function getShift(w: Work, by: { id: string } | { externalId: string }): Promise<ShiftView> {
  const s = await w.em.findOne(Shift, by);
  if (!s) throw new NotFound('id' in by ? 'shift' : 'shift with externalId', 'id' in by ? by.id : by.externalId);
  assertEmployeeRecordInReach(w.reach(), s.locationId, s.employeeId);
  return shiftView(w, s);
}

/**
 * A terminated employee's shifts on days after their last day (local date at each shift's location)
 * become open: `shift.changed` for each, `open_shift.posted` for each published one (by the system).
 * Run again, it finds none left.
 */
export async function openShiftsAfter(w: Work, employeeId: string, lastDay: string): Promise<void> {
  const { em } = w;
  const system = { actor: systemPrincipal };
  // from the last day's UTC midnight: a day's margin for zones behind UTC, the local date decides
  const shifts = await em.find(Shift, { employeeId, status: { $ne: 'archived' }, start: { $gte: DateTime.fromISO(lastDay, { zone: 'UTC' }).toJSDate() } });
  const zones = await zonesOf(w, shifts.map((s) => s.locationId));
  const at = w.now;
  for (const s of shifts) {
    const zone = zones.get(s.locationId) ?? 'UTC';
    if (DateTime.fromJSDate(new Date(s.start), { zone }).toISODate()! <= lastDay) continue;
    s.employeeId = null;
    s.version += 1;
    s.updatedAt = at;
    await em.flush();
    const view = shiftDto(s, zone);
    record(w, 'shift.changed', view, { employeeId }, system);
    postIfOpen(w, view, false, system);
  }
}

/**
 * Approved time off flags the employee's shifts (not archived) on its local days at their locations;
 * its cancel lifts the flags. `shift.changed` for each shift whose flags changed (by the system).
 */
export async function flagTimeOffShifts(w: Work, t: { id: string; employeeId: string; startDate: string; endDate: string; partialHours: string | null; status: 'approved' | 'cancelled' }): Promise<void> {
  // a day's margin either side of UTC: the local date decides
  const from = new Date(DateTime.fromISO(t.startDate, { zone: 'UTC' }).minus({ days: 1 }).toMillis());
  const to = new Date(DateTime.fromISO(t.endDate, { zone: 'UTC' }).plus({ days: 2 }).toMillis());
  const { em } = w;
  const shifts = await em.find(Shift, { employeeId: t.employeeId, status: { $ne: 'archived' }, start: { $lt: to }, end: { $gt: from } });
  const zones = await zonesOf(w, shifts.map((s) => s.locationId));
  const span = t.startDate === t.endDate ? t.startDate : `${t.startDate} to ${t.endDate}`;
  const at = w.now;
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
    record(w, 'shift.changed', shiftDto(s, zone), { flags: before }, { actor: systemPrincipal });
  }
}
