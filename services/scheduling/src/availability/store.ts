import { LockMode } from '@mikro-orm/core';
import {
  assertEmployeeRecordInReach,
  atEmployeeLocations,
  Conflict,
  employeeRecordScope,
  employeeScopeCondition,
  findPage,
  findPlain,
  newId,
  NotFound,
  now as clockNow,
  resolveEmployees,
  ValidationError,
  type EntityManager,
  type PageRequest,
  type ReachSet,
  type ReplicaEmployee,
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

async function employeeOf(em: EntityManager, employeeId: string): Promise<ReplicaEmployee> {
  const e = (await resolveEmployees(em, 'scheduling', [{ employeeId }], { payRates: false })).byId.get(employeeId);
  if (!e) throw new ValidationError([{ path: 'employeeId', message: `No employee ${employeeId}.` }]);
  return e;
}

async function viewsOf(em: EntityManager, rows: Availability[]): Promise<AvailabilityView[]> {
  const employees = await findPlain(em, SchedulingEmployee, { id: { $in: [...new Set(rows.map((r) => r.employeeId))] } });
  const home = new Map(employees.map((e) => [e.id, e.homeLocationId]));
  const zones = await zonesOf(em, [...home.values()]);
  return rows.map((r) => availabilityDto(r, zones.get(home.get(r.employeeId) ?? '') ?? 'UTC'));
}

/** `POST /availability` (a manager, for an employee in reach) and `POST /me/availability` (the employee's own). */
export async function addWindow(em: EntityManager, employeeId: string, w: WindowFields, reach: ReachSet | null): Promise<AvailabilityView> {
  const e = await employeeOf(em, employeeId);
  if (reach) assertEmployeeInReach(reach, e);
  const at = clockNow();
  const a = em.create(Availability, {
    id: newId('availability'),
    employeeId,
    kind: w.kind,
    weekday: w.weekday ?? null,
    date: w.date ?? null,
    startTime: w.startTime,
    endTime: w.endTime,
    effectiveFrom: w.effectiveFrom ?? null,
    effectiveUntil: w.effectiveUntil ?? null,
    note: w.note ?? null,
    status: 'active',
    version: 1,
    createdAt: at,
    updatedAt: at,
  });
  await em.flush();
  return (await viewsOf(em, [a]))[0];
}

/** A window by id within the caller's reach (a manager) or of the caller (`employeeId`); another's is not found. */
async function windowFor(em: EntityManager, id: string, who: { reach: ReachSet } | { employeeId: string }, lock = false): Promise<Availability> {
  const a = await em.findOne(Availability, { id }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!a || ('employeeId' in who && a.employeeId !== who.employeeId)) throw new NotFound('availability window', id);
  if ('reach' in who) assertEmployeeInReach(who.reach, await employeeOf(em, a.employeeId));
  return a;
}

export async function getWindow(em: EntityManager, id: string, reach: ReachSet): Promise<AvailabilityView> {
  return (await viewsOf(em, [await windowFor(em, id, { reach })]))[0];
}

/** `PATCH /availability/{id}` (If-Match honoured): times, kind, validity and note; the weekday or date stays. */
export async function changeWindow(em: EntityManager, id: string, patch: Partial<WindowFields>, caller: { reach: ReachSet; checkVersion(v: number): void }): Promise<AvailabilityView> {
  return em.transactional(async (tem) => {
    const a = await windowFor(tem, id, { reach: caller.reach }, true);
    if (a.status === 'archived') throw new Conflict(`Availability window ${id} is archived; add a new one.`);
    caller.checkVersion(a.version);
    const next = { ...a, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) } as Availability;
    if (next.endTime <= next.startTime) throw new ValidationError([{ path: patch.endTime !== undefined ? 'endTime' : 'startTime', message: 'The window must end after it starts on the same day.' }]);
    if (a.date !== null && (next.effectiveFrom || next.effectiveUntil)) throw new ValidationError([{ path: 'effectiveFrom', message: 'effectiveFrom and effectiveUntil apply to recurring windows only.' }]);
    if (next.effectiveFrom && next.effectiveUntil && next.effectiveUntil < next.effectiveFrom) throw new ValidationError([{ path: 'effectiveUntil', message: 'Must not be before effectiveFrom.' }]);
    const fields = ['kind', 'startTime', 'endTime', 'effectiveFrom', 'effectiveUntil', 'note'] as const;
    const changed = fields.filter((f) => patch[f] !== undefined && patch[f] !== a[f]);
    if (changed.length > 0) {
      for (const f of changed) Object.assign(a, { [f]: patch[f] });
      a.version += 1;
      a.updatedAt = clockNow();
      await tem.flush();
    }
    return (await viewsOf(tem, [a]))[0];
  });
}

/** `DELETE /availability/{id}` (archive) and `DELETE /me/availability/{id}` (the employee's own). */
export async function archiveWindow(em: EntityManager, id: string, who: { reach: ReachSet } | { employeeId: string }): Promise<AvailabilityView> {
  return em.transactional(async (tem) => {
    const a = await windowFor(tem, id, who, true);
    if (a.status !== 'archived') {
      a.status = 'archived';
      a.version += 1;
      a.updatedAt = clockNow();
      await tem.flush();
    }
    return (await viewsOf(tem, [a]))[0];
  });
}

/** Windows of one employee, or of the employees of the locations the caller reaches (a location's: home there or working there). */
export async function listWindows(em: EntityManager, f: { employeeId?: string; locationId?: string; status?: string; reach: ReachSet | null }, page: PageRequest) {
  let employeeIds: string[] | undefined;
  if (f.employeeId) {
    if (f.reach) assertEmployeeInReach(f.reach, await employeeOf(em, f.employeeId));
    employeeIds = [f.employeeId];
  } else if (f.reach) {
    const scope = employeeRecordScope(f.reach, f.locationId);
    const inScope = employeeScopeCondition<SchedulingEmployee>(scope, {
      location: atEmployeeLocations,
      employee: (ids) => ({ id: ids }),
    });
    if (inScope) employeeIds = (await findPlain(em, SchedulingEmployee, inScope)).map((e) => e.id);
  }
  const rows = await findPage(em, Availability, [employeeIds && { employeeId: { $in: employeeIds } }, { status: (f.status ?? 'active') as 'active' }], page);
  return { ...rows, data: await viewsOf(em, rows.data) };
}
