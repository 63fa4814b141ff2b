import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import type { EmployeeRehire, EmployeeTerminate, EmployeeTransfer } from '@bop/contracts';
import { Conflict, ValidationError, now, resolveLocations, systemPrincipal, type EntityManager } from '@bop/shared';
import { PeopleLocation } from '../locations/entities';
import { Activity } from '../activity/entities';
import { Employee } from './entities';
import { employeeDto } from './dto';
import { inEffect, furtherLocations, localDate } from './effective-dating';
import { assertEmployeeInReach, assertNotArchived, checkAssignment, commitChange, employeeForChange, type Caller, type PositionsList } from './store';

/** A location's time zone (replica, read through on a miss; UTC when nobody knows it). */
async function timezoneOf(em: EntityManager, locationId: string): Promise<string> {
  const map = await resolveLocations(em, 'people', [{ locationId }]);
  return map.byId.get(locationId)?.timezone ?? 'UTC';
}

/**
 * `:transfer`: a new home location, department or further locations from `effectiveDate`. On or
 * before today at the new home location it applies at once (`employee.transferred`); a later date is
 * kept as `scheduledTransfer` (`employee.updated`) and applied on that day by the effective-changes worker.
 */
export function transferEmployee(em: EntityManager, id: string, body: z.output<typeof EmployeeTransfer>, caller: Caller, positionsList: PositionsList) {
  return em.transactional(async (tem) => {
    const e = await employeeForChange(tem, id, caller);
    assertNotArchived(e);
    if (e.status !== 'active') throw new Conflict(`Employee ${e.id} is terminated: rehire before a transfer.`);
    const homeLocationId = body.homeLocationId ?? e.homeLocationId;
    const departmentId = body.departmentId !== undefined ? body.departmentId : (e.departmentId ?? null);
    const locationIds = furtherLocations(homeLocationId, body.locationIds ?? e.locationIds);
    if (homeLocationId === e.homeLocationId && departmentId === (e.departmentId ?? null) && JSON.stringify(locationIds) === JSON.stringify(e.locationIds)) {
      throw new ValidationError([{ path: '', message: 'The transfer changes neither the home location, the department nor the further locations.' }]);
    }
    assertEmployeeInReach(caller.reach(), { homeLocationId, locationIds: [] });
    const { timezone } = await checkAssignment(tem, { homeLocationId, locationIds, departmentId }, positionsList);
    if (e.terminationDate && body.effectiveDate >= e.terminationDate) {
      throw new ValidationError([{ path: 'effectiveDate', message: `The employment ends on ${e.terminationDate}; a transfer must take effect before.` }]);
    }
    const before = employeeDto(e);
    if (inEffect(body.effectiveDate, localDate(timezone, now()))) {
      Object.assign(e, { homeLocationId, departmentId, locationIds, scheduledTransfer: null });
      return commitChange(tem, e, before, { action: 'transferred', event: 'employee.transferred', actor: caller.principal });
    }
    e.scheduledTransfer = { effectiveDate: body.effectiveDate, homeLocationId, departmentId, locationIds };
    return commitChange(tem, e, before, { action: 'transfer_scheduled', event: 'employee.updated', actor: caller.principal });
  });
}

/**
 * `:terminate`: employment ends from `effectiveDate` with a reason (spec: terminated from that date,
 * until then active with a termination date). `employee.terminated` is recorded now either way; the
 * status changes at once when the date has come at the home location, else on that day.
 */
export function terminateEmployee(em: EntityManager, id: string, body: z.output<typeof EmployeeTerminate>, caller: Caller) {
  return em.transactional(async (tem) => {
    const e = await employeeForChange(tem, id, caller);
    assertNotArchived(e);
    return recordTermination(tem, e, body.effectiveDate, body.reason, caller.principal);
  });
}

/** Records a termination on a locked employee (also the HR feed's newly set termination date). */
export async function recordTermination(em: EntityManager, e: Employee, effectiveDate: string, reason: string | null, actor: Caller['principal']) {
  if (e.status === 'terminated') throw new Conflict(`Employee ${e.id} was terminated on ${e.terminationDate}.`);
  // the same termination sent again records nothing; another date for one still to come moves it
  if (e.terminationDate === effectiveDate && (e.terminationReason ?? null) === reason) return employeeDto(e);
  if (effectiveDate < e.hireDate) throw new ValidationError([{ path: 'effectiveDate', message: `The employment began on ${e.hireDate}; it cannot end before.` }]);
  const before = employeeDto(e);
  e.terminationDate = effectiveDate;
  e.terminationReason = reason;
  if (e.scheduledTransfer && e.scheduledTransfer.effectiveDate >= effectiveDate) e.scheduledTransfer = null;
  const due = inEffect(effectiveDate, localDate(await timezoneOf(em, e.homeLocationId), now()));
  if (due) e.status = 'terminated';
  return commitChange(em, e, before, { action: due ? 'terminated' : 'termination_scheduled', event: 'employee.terminated', actor });
}

/** `:rehire`: a terminated employee employed again from `effectiveDate`; the earlier period is kept in `employmentHistory`. */
export function rehireEmployee(em: EntityManager, id: string, body: z.output<typeof EmployeeRehire>, caller: Caller, positionsList: PositionsList) {
  return em.transactional(async (tem) => {
    const e = await employeeForChange(tem, id, caller);
    assertNotArchived(e);
    if (e.status !== 'terminated') throw new Conflict(`Employee ${e.id} is active${e.terminationDate ? ` (terminated from ${e.terminationDate})` : ''}: only a terminated employee can be rehired.`);
    if (body.effectiveDate <= e.terminationDate!) throw new ValidationError([{ path: 'effectiveDate', message: `The last employment ended on ${e.terminationDate}; a rehire starts after it.` }]);
    const homeLocationId = body.homeLocationId ?? e.homeLocationId;
    const departmentId = body.departmentId !== undefined ? body.departmentId : (e.departmentId ?? null);
    assertEmployeeInReach(caller.reach(), { homeLocationId, locationIds: [] });
    const locationIds = furtherLocations(homeLocationId, e.locationIds);
    await checkAssignment(tem, { homeLocationId, locationIds, departmentId }, positionsList);
    const before = employeeDto(e);
    e.employmentHistory = [...(e.employmentHistory ?? []), { hireDate: e.hireDate, terminationDate: e.terminationDate!, terminationReason: e.terminationReason ?? null }];
    Object.assign(e, { status: 'active', hireDate: body.effectiveDate, terminationDate: null, terminationReason: null, homeLocationId, departmentId, locationIds });
    return commitChange(tem, e, before, { action: 'rehired', event: 'employee.updated', actor: caller.principal });
  });
}

/**
 * The effective-changes worker's pass: every scheduled transfer and termination whose day has come
 * at the employee's (new) home location is applied, one employee per transaction, actor `system`.
 * Answers how many changes were applied.
 */
export async function applyDueChanges(em: EntityManager): Promise<number> {
  const scheduled = await em.find(Employee, { $or: [{ scheduledTransfer: { $ne: null } }, { status: 'active', terminationDate: { $ne: null } }] }, { fields: ['id', 'homeLocationId', 'scheduledTransfer', 'terminationDate'], orderBy: { id: 'asc' } });
  const locationIds = [...new Set(scheduled.flatMap((e) => [e.homeLocationId, e.scheduledTransfer?.homeLocationId].filter((x): x is string => Boolean(x))))];
  const zones = new Map((await em.find(PeopleLocation, { id: { $in: locationIds } }, { fields: ['id', 'timezone'] })).map((l) => [l.id, l.timezone]));
  const candidates = scheduled.map((e) => ({
    id: e.id,
    home_tz: zones.get(e.homeLocationId) ?? null,
    transfer_tz: e.scheduledTransfer ? (zones.get(e.scheduledTransfer.homeLocationId) ?? null) : null,
    transfer_date: e.scheduledTransfer?.effectiveDate ?? null,
    termination_date: e.terminationDate ?? null,
  }));
  const at = now();
  let applied = 0;
  for (const c of candidates) {
    const transferDue = c.transfer_date !== null && inEffect(c.transfer_date, localDate(c.transfer_tz ?? c.home_tz ?? 'UTC', at));
    const terminationDue = c.termination_date !== null && inEffect(c.termination_date, localDate(c.home_tz ?? 'UTC', at));
    if (!transferDue && !terminationDue) continue;
    applied += await em.fork().transactional(async (tem) => {
      const e = await tem.findOne(Employee, { id: c.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!e || e.status === 'archived') return 0;
      let n = 0;
      if (transferDue && e.scheduledTransfer) {
        const before = employeeDto(e);
        const t = e.scheduledTransfer;
        Object.assign(e, { homeLocationId: t.homeLocationId, departmentId: t.departmentId, locationIds: t.locationIds, scheduledTransfer: null });
        commitChange(tem, e, before, { action: 'transferred', event: 'employee.transferred', actor: systemPrincipal });
        n += 1;
      }
      if (terminationDue && e.status === 'active' && e.terminationDate) {
        const before = employeeDto(e);
        e.status = 'terminated';
        commitChange(tem, e, before, { action: 'terminated', event: 'employee.updated', actor: systemPrincipal });
        n += 1;
      }
      return n;
    });
  }
  return applied;
}

/** The personal fields of an employee record; anonymisation clears them while ids, dates and figures stay. */
const PERSONAL_FIELDS = ['legalFirstName', 'legalLastName', 'preferredName', 'email', 'phone', 'address', 'birthDate', 'terminationReason', 'emergencyContacts'];

/**
 * Anonymises the archived employees whose retention period (company settings
 * `employeeRetentionDays`) has passed: names become "Former employee", contact details, address,
 * birth date, emergency contacts and the termination reason go, also from the audit trail; ids,
 * dates, places of work and pay rates stay. `employee.updated` (actor system) tells the replicas.
 */
export async function anonymiseExpired(em: EntityManager, retentionDays: number): Promise<number> {
  const cutoff = new Date(now().getTime() - retentionDays * 86_400_000);
  const due = await em.find(Employee, { status: 'archived', anonymisedAt: null, archivedAt: { $lt: cutoff } }, { fields: ['id'], orderBy: { id: 'asc' }, limit: 100 });
  for (const { id } of due) {
    await em.fork().transactional(async (tem) => {
      const e = await tem.findOne(Employee, { id, anonymisedAt: null }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!e) return;
      // neither the audit entry nor the event's `previous` may carry what is being erased
      const before = Object.fromEntries(Object.entries(employeeDto(e)).map(([k, v]) => [k, PERSONAL_FIELDS.includes(k) && v !== null ? '(erased)' : v])) as ReturnType<typeof employeeDto>;
      Object.assign(e, { legalFirstName: 'Former', legalLastName: 'employee', preferredName: null, email: null, phone: null, address: null, birthDate: null, terminationReason: null, emergencyContacts: [], anonymisedAt: now() });
      for (const entry of await tem.find(Activity, { employeeId: id })) {
        entry.changes = entry.changes.map((c) => (PERSONAL_FIELDS.includes(c.field) ? { field: c.field, from: null, to: null } : c));
      }
      commitChange(tem, e, before, { action: 'anonymised', event: 'employee.updated', actor: systemPrincipal });
    });
  }
  return due.length;
}
