import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { z } from 'zod';
import type { EmployeeCreate, EmployeeListQuery, EmployeePatch } from '@bop/contracts';
import {
  Conflict,
  NotFound,
  OutOfReach,
  ValidationError,
  assertLocationInReach,
  atEmployeeLocations,
  changedFields,
  employeeRecordScope,
  employeeScopeCondition,
  findPage,
  findPlain,
  mapPage,
  newId,
  now,
  reachCoversEmployeeRecord,
  reachableLocationIds,
  recordEvent,
  sqlList,
  sqlQuery,
  writableLocations,
  type EntityManager,
  type FieldError,
  type Principal,
  type ReachSet,
} from '@bop/shared';
import { Employee, type Contact } from './entities';
import { PayRate } from '../pay-rates/entities';
import { employeeDto, type EmployeeDto } from './dto';
import { furtherLocations } from './effective-dating';
import { currentDepartment } from '../departments/replica-store';
import { recordActivity } from '../activity/store';

/** Who asks, as the stores need it (the route context). */
export interface Caller {
  principal: Principal;
  reach(): ReachSet;
  checkVersion(current: number): void;
}

/** The company's list of positions (company settings), or null when it cannot be known here (identity not configured). */
export type PositionsList = () => Promise<string[] | null>;

/** What a new employee record is made of; the rest starts empty (active, no termination, no history). */
export type NewEmployee = Pick<
  Employee,
  'employeeNumber' | 'externalId' | 'legalFirstName' | 'legalLastName' | 'preferredName' | 'email' | 'phone' | 'address' | 'birthDate' | 'homeLocationId' | 'locationIds' | 'departmentId' | 'positions' | 'hireDate'
>;

export function newEmployeeRecord(em: EntityManager, fields: NewEmployee): Employee {
  const at = now();
  return em.create(Employee, {
    ...fields,
    id: newId('employee'),
    status: 'active',
    terminationDate: null,
    terminationReason: null,
    scheduledTransfer: null,
    employmentHistory: [],
    emergencyContacts: [],
    userId: null,
    version: 1,
    createdAt: at,
    updatedAt: at,
    archivedAt: null,
    anonymisedAt: null,
  });
}

/** An employee's place of work as a write names it. */
export interface Assignment {
  homeLocationId: string;
  locationIds: string[];
  departmentId: string | null;
  positions: string[];
}

/**
 * Checks the locations, department and positions a write names, as their owners say now: locations
 * active (organization, read through), the department active and of the home location or
 * company-wide, positions from the company's list without repeats. Answers the home location's time zone.
 */
export async function checkAssignment(em: EntityManager, a: Partial<Assignment> & { homeLocationId: string }, positionsList: PositionsList): Promise<{ timezone: string }> {
  const further = a.locationIds ?? [];
  const refs = [{ id: a.homeLocationId, path: 'homeLocationId', takes: 'employees' }, ...further.map((id, i) => ({ id, path: `locationIds[${i}]`, takes: 'employees' }))];
  const { errors, byId } = await writableLocations(em, 'people', refs);
  const fieldErrors: FieldError[] = [...errors];
  if (a.departmentId) {
    const dep = await currentDepartment(em, a.departmentId);
    if (!dep) fieldErrors.push({ path: 'departmentId', message: `No department ${a.departmentId}.` });
    else if (dep.status !== 'active') fieldErrors.push({ path: 'departmentId', message: `Department ${a.departmentId} is ${dep.status}.` });
    else if (dep.locationId && dep.locationId !== a.homeLocationId) {
      fieldErrors.push({ path: 'departmentId', message: `Department ${a.departmentId} belongs to location ${dep.locationId}, not to the home location ${a.homeLocationId}.` });
    }
  }
  if (a.positions && a.positions.length > 0) {
    const seen = new Set<string>();
    a.positions.forEach((p, i) => {
      if (seen.has(p.toLowerCase())) fieldErrors.push({ path: `positions[${i}]`, message: `Position "${p}" is listed twice.` });
      seen.add(p.toLowerCase());
    });
    const list = await positionsList();
    if (list !== null) {
      const known = new Set(list.map((p) => p.toLowerCase()));
      a.positions.forEach((p, i) => {
        if (!known.has(p.toLowerCase())) fieldErrors.push({ path: `positions[${i}]`, message: `Position "${p}" is not one of the company's positions (company settings \`positions\`).` });
      });
    }
  }
  if (fieldErrors.length > 0) throw new ValidationError(fieldErrors);
  return { timezone: byId.get(a.homeLocationId)!.timezone };
}

/** The positions as the company's list spells them. */
export async function canonicalPositions(positions: readonly string[], positionsList: PositionsList): Promise<string[]> {
  const list = await positionsList();
  if (!list) return [...positions];
  const byLower = new Map(list.map((p) => [p.toLowerCase(), p]));
  return positions.map((p) => byLower.get(p.toLowerCase()) ?? p);
}

/**
 * Refuses (403 out_of_reach) an employee the reach does not cover: not at the home location nor a
 * further one, nor in an employee set. Without `id` (an employee to be created or moved there) the
 * location alone decides.
 */
export function assertEmployeeInReach(reach: ReachSet, e: { id?: string; homeLocationId: string; locationIds: readonly string[] }): void {
  if (reachCoversEmployeeRecord(reach, { locationIds: [e.homeLocationId, ...e.locationIds], employeeId: e.id })) return;
  if (!e.id) assertLocationInReach(reach, e.homeLocationId);
  throw new OutOfReach(`Your permission does not reach employee ${e.id}.`);
}

/** An employee locked for a change the caller may make (404, 403 out_of_reach, 409 version_mismatch). */
export async function employeeForChange(em: EntityManager, id: string, caller: Caller): Promise<Employee> {
  const e = await em.findOne(Employee, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!e) throw new NotFound('employee', id);
  assertEmployeeInReach(caller.reach(), e);
  caller.checkVersion(e.version);
  return e;
}

/** Archived is final: nothing changes an archived record but the anonymisation. */
export function assertNotArchived(e: Employee): void {
  if (e.status === 'archived') throw new Conflict(`Employee ${e.id} is archived; its record no longer changes.`);
}

/**
 * Commits a change to a locked employee: version and time, the audit trail, and the event (same
 * transaction). Answers the new view.
 */
export function commitChange(em: EntityManager, e: Employee, before: EmployeeDto | null, change: { action: string; event: string; actor: Principal | null }): EmployeeDto {
  if (before) {
    e.version += 1;
    e.updatedAt = now();
  }
  const after = employeeDto(e);
  recordActivity(em, e.id, change.actor, change.action, before, after);
  recordEvent(em, {
    type: change.event,
    aggregateType: 'employee',
    aggregateId: e.id,
    locationId: e.homeLocationId,
    object: after,
    previous: before ? changedFields(before, after) : undefined,
    actor: change.actor,
  });
  return after;
}

/** A unique externalId or employee number taken by another employee: 409 naming the field. */
export function uniqueConflict(err: unknown): unknown {
  if (!(err instanceof UniqueConstraintViolationException)) return err;
  const field = /employees_number_uq/.test(err.message) ? 'employeeNumber' : 'externalId';
  return new Conflict(`Another employee already has this ${field}.`, [{ path: field, message: 'Already used by another employee.' }]);
}

/** The fields an employee's record takes as sent (absent → null), with its positions already made canonical: one mapping for `POST /employees` and the HR feed's PUT. */
export function personalFields(
  body: Pick<z.output<typeof EmployeeCreate>, 'employeeNumber' | 'legalFirstName' | 'legalLastName' | 'preferredName' | 'email' | 'phone' | 'address' | 'birthDate'>,
  positions: string[],
) {
  return {
    employeeNumber: body.employeeNumber ?? null,
    legalFirstName: body.legalFirstName,
    legalLastName: body.legalLastName,
    preferredName: body.preferredName ?? null,
    email: body.email ?? null,
    phone: body.phone ?? null,
    address: body.address ?? null,
    birthDate: body.birthDate ?? null,
    positions,
  };
}

export async function createEmployee(em: EntityManager, body: z.output<typeof EmployeeCreate>, caller: Caller, positionsList: PositionsList) {
  const locationIds = furtherLocations(body.homeLocationId, body.locationIds ?? []);
  assertEmployeeInReach(caller.reach(), { homeLocationId: body.homeLocationId, locationIds: [] });
  await checkAssignment(em, { ...body, locationIds, departmentId: body.departmentId ?? null }, positionsList);
  const positions = await canonicalPositions(body.positions ?? [], positionsList);
  try {
    return await em.transactional(async (tem) => {
      const e = newEmployeeRecord(tem, {
        ...personalFields(body, positions),
        externalId: body.externalId ?? null,
        homeLocationId: body.homeLocationId,
        locationIds,
        departmentId: body.departmentId ?? null,
        hireDate: body.hireDate,
      });
      await tem.flush();
      return commitChange(tem, e, null, { action: 'created', event: 'employee.created', actor: caller.principal });
    });
  } catch (err) {
    throw uniqueConflict(err);
  }
}

/** An employee the caller's read reaches (404 when there is none, 403 out_of_reach otherwise). */
export async function getEmployee(em: EntityManager, where: { id: string } | { externalId: string }, caller: Pick<Caller, 'reach'>) {
  const e = await em.findOne(Employee, where);
  if (!e) throw 'id' in where ? new NotFound('employee', where.id) : new NotFound('employee with externalId', where.externalId);
  assertEmployeeInReach(caller.reach(), e);
  return employeeDto(e);
}

/** A page of the employees the caller's read reaches; `locationId` matches the home or a further location. */
export async function listEmployees(em: EntityManager, query: z.output<typeof EmployeeListQuery>, caller: Pick<Caller, 'reach'>) {
  const { limit, cursor, locationId, departmentId, status, updatedSince } = query;
  const page = await findPage(
    em,
    Employee,
    [
      employeeScopeCondition<Employee>(employeeRecordScope(caller.reach(), locationId), {
        location: atEmployeeLocations,
        employee: (ids) => ({ id: ids }),
      }),
      departmentId && { departmentId },
      status && { status },
      updatedSince && { updatedAt: { $gte: new Date(updatedSince) } },
    ],
    { limit, cursor },
  );
  return mapPage(page, employeeDto);
}

export async function patchEmployee(em: EntityManager, id: string, body: z.output<typeof EmployeePatch>, caller: Caller, positionsList: PositionsList) {
  try {
    return await em.transactional(async (tem) => {
      const e = await employeeForChange(tem, id, caller);
      assertNotArchived(e);
      const before = employeeDto(e);
      if (body.locationIds !== undefined || body.positions !== undefined) {
        await checkAssignment(tem, { homeLocationId: e.homeLocationId, locationIds: body.locationIds !== undefined ? furtherLocations(e.homeLocationId, body.locationIds) : [], positions: body.positions }, positionsList);
      }
      if (body.locationIds !== undefined) e.locationIds = furtherLocations(e.homeLocationId, body.locationIds);
      if (body.positions !== undefined) e.positions = await canonicalPositions(body.positions, positionsList);
      for (const field of ['employeeNumber', 'externalId', 'legalFirstName', 'legalLastName', 'preferredName', 'email', 'phone', 'address', 'birthDate', 'hireDate'] as const) {
        if (body[field] !== undefined) (e as Record<string, unknown>)[field] = body[field];
      }
      if (e.terminationDate && e.hireDate > e.terminationDate) throw new ValidationError([{ path: 'hireDate', message: `The hire date cannot follow the termination date ${e.terminationDate}.` }]);
      if (Object.keys(changedFields(before, employeeDto(e))).length === 0) return before;
      await tem.flush();
      return commitChange(tem, e, before, { action: 'updated', event: 'employee.updated', actor: caller.principal });
    });
  } catch (err) {
    throw uniqueConflict(err);
  }
}

/** DELETE: archives a terminated employee (records kept; personal fields anonymised after the retention period). */
export function archiveEmployee(em: EntityManager, id: string, caller: Caller) {
  return em.transactional(async (tem) => {
    const e = await employeeForChange(tem, id, caller);
    if (e.status === 'archived') return employeeDto(e);
    if (e.status !== 'terminated') throw new Conflict(`Employee ${e.id} is ${e.status}${e.terminationDate ? ` until ${e.terminationDate}` : ''}: only a terminated employee can be archived (terminate first).`);
    const before = employeeDto(e);
    e.status = 'archived';
    e.archivedAt = now();
    return commitChange(tem, e, before, { action: 'archived', event: 'employee.archived', actor: caller.principal });
  });
}

export async function getEmergencyContacts(em: EntityManager, id: string, caller: Pick<Caller, 'reach'>) {
  const e = await em.findOne(Employee, { id });
  if (!e) throw new NotFound('employee', id);
  assertEmployeeInReach(caller.reach(), e);
  return { contacts: e.emergencyContacts ?? [] };
}

/** Replaces the emergency contacts (an audit entry with the old and new lists; `employee.updated`). */
export function replaceEmergencyContacts(em: EntityManager, id: string, contacts: Contact[], caller: Caller) {
  return em.transactional(async (tem) => {
    const e = await employeeForChange(tem, id, caller);
    assertNotArchived(e);
    return setContacts(tem, e, contacts, caller.principal, 'emergency_contacts_replaced');
  });
}

/** Sets a locked employee's contacts; nothing happens when they are the same. */
export function setContacts(em: EntityManager, e: Employee, contacts: Contact[], actor: Principal | null, action: string) {
  const normalised = contacts.map((c) => ({ name: c.name, relationship: c.relationship, phone: c.phone, email: c.email ?? null }));
  const old = e.emergencyContacts ?? [];
  if (JSON.stringify(old) === JSON.stringify(normalised)) return { contacts: old };
  e.emergencyContacts = normalised;
  e.version += 1;
  e.updatedAt = now();
  const object = employeeDto(e);
  recordActivity(em, e.id, actor, action, { emergencyContacts: old }, { emergencyContacts: normalised });
  recordEvent(em, { type: 'employee.updated', aggregateType: 'employee', aggregateId: e.id, locationId: e.homeLocationId, object, actor });
  return { contacts: normalised };
}

/** The employees named by id or externalId (unknown ones are absent) with their pay rates: the internal read. */
export async function resolveEmployees(
  em: EntityManager,
  q: { ids: string[]; externalIds: string[] },
  opts: { payRates: boolean; known?: Array<{ id: string; version: number }> },
): Promise<{ employees: Employee[]; rates: Map<string, PayRate[]>; current: string[] }> {
  let ids = [...new Set(q.ids)];
  let externalIds = [...new Set(q.externalIds)];
  const current: string[] = [];
  if (ids.length === 0 && externalIds.length === 0) return { employees: [], rates: new Map(), current };
  if (opts.known && opts.known.length > 0) {
    // the caller's versions first, from the keys alone: only those that changed are read whole
    const known = new Map(opts.known.map((k) => [k.id, k.version]));
    const keys = await sqlQuery<{ id: string; version: number }>(em, `select "id", "version" from "people"."employees" where "id" = any(?::text[]) or "external_id" = any(?::text[])`, [
      sqlList(ids),
      sqlList(externalIds),
    ]);
    const stale: string[] = [];
    for (const k of keys) (known.get(k.id) === k.version ? current : stale).push(k.id);
    ids = stale;
    externalIds = [];
    if (ids.length === 0) return { employees: [], rates: new Map(), current };
  }
  // plain rows: a batch of punches asks about a thousand employees at a time (no entities to build)
  const employees = await findPlain(em, Employee, { $or: [{ id: { $in: ids } }, { externalId: { $in: externalIds } }] }, { orderBy: { id: 'asc' } });
  const rates = new Map<string, PayRate[]>();
  if (employees.length > 0 && opts.payRates) {
    for (const r of await findPlain(em, PayRate, { employeeId: { $in: employees.map((e) => e.id) } }, { orderBy: { effectiveDate: 'asc', id: 'asc' } })) {
      rates.set(r.employeeId, [...(rates.get(r.employeeId) ?? []), r]);
    }
  }
  return { employees, rates, current };
}

/** The ids of the employees a reach covers (null: every employee), for lists of records that belong to employees. */
export async function reachableEmployeeIds(em: EntityManager, reach: ReachSet): Promise<string[] | null> {
  if (reach.everyone) return null;
  const locations = reachableLocationIds(reach) ?? [];
  const rows = await em.find(Employee, { $or: [{ homeLocationId: { $in: locations } }, { locationIds: { $overlap: locations } }, { id: { $in: [...reach.employeeSetIds] } }] }, { fields: ['id'] });
  return rows.map((r) => r.id);
}

/** An employee a write about them names (documents, certifications): 422 on the field when unknown, 403 when out of reach. */
export async function employeeForRecord(em: EntityManager, id: string, reach: ReachSet, path = 'employeeId'): Promise<Employee> {
  const e = await em.findOne(Employee, { id });
  if (!e) throw new ValidationError([{ path, message: `No employee ${id}.` }]);
  assertEmployeeInReach(reach, e);
  return e;
}
