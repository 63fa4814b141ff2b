import { LockMode } from '@mikro-orm/core';
import {
  assertEmployeeRecordInReach,
  atEmployeeLocations,
  changedFields,
  Conflict,
  employeeRecordScope,
  employeeScopeCondition,
  findPage,
  findPlain,
  newId,
  NotFound,
  resolveEmployees,
  ValidationError,
  type PageRequest,
  type ReachSet,
  type ReplicaEmployee,
  type Work,
} from '@bop/shared';
import { Availability, type AvailabilityKindName } from './entities';
import { availabilityDto, type AvailabilityView } from './dto';
import { SchedulingEmployee } from '../employees/entities';
import { zonesOf } from '../shifts/store';

export interface WindowFields {
  kind: AvailabilityKindName;
  weekday?: string;
  date?: string;
  startTime: string;
  endTime: string;
  effectiveFrom?: string | null;
  effectiveUntil?: string | null;
  note?: string | null;
}

/** An employee's availability is theirs and their managers': a manager reaches it through the employee's home location, or the employee in an employee set. */
function assertEmployeeInReach(reach: ReachSet, e: Pick<ReplicaEmployee, 'id' | 'homeLocationId'>) {
  assertEmployeeRecordInReach(reach, e.homeLocationId, e.id);
}

async function employeeOf(w: Work, employeeId: string): Promise<ReplicaEmployee> {
  const e = (await resolveEmployees(w, [{ employeeId }], { payRates: false })).byId.get(employeeId);
  if (!e) throw new ValidationError([{ path: 'employeeId', message: `No employee ${employeeId}.` }]);
  return e;
}

async function viewsOf(w: Work, rows: Availability[]): Promise<AvailabilityView[]> {
  const employees = await findPlain(w.em, SchedulingEmployee, { id: { $in: [...new Set(rows.map((r) => r.employeeId))] } });
  const home = new Map(employees.map((e) => [e.id, e.homeLocationId]));
  const zones = await zonesOf(w, [...home.values()]);
  return rows.map((r) => availabilityDto(r, zones.get(home.get(r.employeeId) ?? '') ?? 'UTC'));
}

type WindowEvent = 'availability.created' | 'availability.updated' | 'availability.archived';

/**
 * A window's public change event (the project's own types): data.object the window as the API returns
 * it, at the employee's home location. Answers the window.
 */
async function recordWindow(w: Work, type: WindowEvent, a: Availability, before?: AvailabilityView): Promise<AvailabilityView> {
  const view = (await viewsOf(w, [a]))[0];
  const [employee] = await findPlain(w.em, SchedulingEmployee, { id: a.employeeId });
  w.emit({ type, aggregateType: 'availability', aggregateId: a.id, locationId: employee?.homeLocationId ?? null, object: view, ...(before ? { previous: changedFields(before, view) } : {}) });
  return view;
}

/** `POST /availability` (a manager, for an employee in reach) and `POST /me/availability` (the employee's own). */
export async function addWindow(w: Work, employeeId: string, fields: WindowFields, reach: ReachSet | null): Promise<AvailabilityView> {
  const e = await employeeOf(w, employeeId);
  if (reach) assertEmployeeInReach(reach, e);
  const at = w.now;
  const a = w.em.create(Availability, {
    id: newId('availability'),
    employeeId,
    kind: fields.kind,
    weekday: fields.weekday ?? null,
    date: fields.date ?? null,
    startTime: fields.startTime,
    endTime: fields.endTime,
    effectiveFrom: fields.effectiveFrom ?? null,
    effectiveUntil: fields.effectiveUntil ?? null,
    note: fields.note ?? null,
    status: 'active',
    version: 1,
    createdAt: at,
    updatedAt: at,
  });
  await w.em.flush();
  return recordWindow(w, 'availability.created', a);
}

/** A window by id within the caller's reach (a manager) or of the caller (`employeeId`); another's is not found. */
async function windowFor(w: Work, id: string, who: { reach: ReachSet } | { employeeId: string }, lock = false): Promise<Availability> {
  const a = await w.em.findOne(Availability, { id }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!a || ('employeeId' in who && a.employeeId !== who.employeeId)) throw new NotFound('availability window', id);
  if ('reach' in who) assertEmployeeInReach(who.reach, await employeeOf(w, a.employeeId));
  return a;
}

export async function getWindow(w: Work, id: string): Promise<AvailabilityView> {
  return (await viewsOf(w, [await windowFor(w, id, { reach: w.reach() })]))[0];
}

/** `PATCH /availability/{id}` (If-Match honoured): times, kind, validity and note; the weekday or date stays. */
export async function changeWindow(w: Work, id: string, patch: Partial<WindowFields>): Promise<AvailabilityView> {
  const a = await windowFor(w, id, { reach: w.reach() }, true);
  if (a.status === 'archived') throw new Conflict(`Availability window ${id} is archived; add a new one.`);
  w.checkVersion(a.version);
  const next = { ...a, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) } as Availability;
  if (next.endTime <= next.startTime) throw new ValidationError([{ path: patch.endTime !== undefined ? 'endTime' : 'startTime', message: 'The window must end after it starts on the same day.' }]);
  if (a.date !== null && (next.effectiveFrom || next.effectiveUntil)) throw new ValidationError([{ path: 'effectiveFrom', message: 'effectiveFrom and effectiveUntil apply to recurring windows only.' }]);
  if (next.effectiveFrom && next.effectiveUntil && next.effectiveUntil < next.effectiveFrom) throw new ValidationError([{ path: 'effectiveUntil', message: 'Must not be before effectiveFrom.' }]);
  const fields = ['kind', 'startTime', 'endTime', 'effectiveFrom', 'effectiveUntil', 'note'] as const;
  const changed = fields.filter((f) => patch[f] !== undefined && patch[f] !== a[f]);
  if (changed.length === 0) return (await viewsOf(w, [a]))[0];
  const before = (await viewsOf(w, [a]))[0];
  for (const f of changed) Object.assign(a, { [f]: patch[f] });
  a.version += 1;
  a.updatedAt = w.now;
  await w.em.flush();
  return recordWindow(w, 'availability.updated', a, before);
}

/** `DELETE /availability/{id}` (archive) and `DELETE /me/availability/{id}` (the employee's own). */
export async function archiveWindow(w: Work, id: string, who: { reach: ReachSet } | { employeeId: string }): Promise<AvailabilityView> {
  const a = await windowFor(w, id, who, true);
  if (a.status === 'archived') return (await viewsOf(w, [a]))[0];
  const before = (await viewsOf(w, [a]))[0];
  a.status = 'archived';
  a.version += 1;
  a.updatedAt = w.now;
  await w.em.flush();
  return recordWindow(w, 'availability.archived', a, before);
}

/** Windows of one employee, or of the employees of the locations the caller reaches (a location's: home there or working there). */
export async function listWindows(w: Work, f: { employeeId?: string; locationId?: string; status?: string; reach: ReachSet | null }, page: PageRequest & { updatedSince?: string }) {
  let employeeIds: string[] | undefined;
  if (f.employeeId) {
    if (f.reach) assertEmployeeInReach(f.reach, await employeeOf(w, f.employeeId));
    employeeIds = [f.employeeId];
  } else if (f.reach) {
    const scope = employeeRecordScope(f.reach, f.locationId);
    const inScope = employeeScopeCondition<SchedulingEmployee>(scope, {
      location: atEmployeeLocations,
      employee: (ids) => ({ id: ids }),
    });
    if (inScope) employeeIds = (await findPlain(w.em, SchedulingEmployee, inScope)).map((e) => e.id);
  }
  const rows = await findPage(w.em, Availability, [employeeIds && { employeeId: { $in: employeeIds } }, { status: (f.status ?? 'active') as 'active' }], page);
  return { ...rows, data: await viewsOf(w, rows.data) };
}
