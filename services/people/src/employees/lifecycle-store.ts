import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import type { EmployeeRehire, EmployeeTerminate, EmployeeTransfer } from '@bop/contracts';
import { Conflict, ValidationError, resolveLocations, type Work } from '@bop/shared';
import { PeopleLocation } from '../locations/entities';
import { Activity } from '../activity/entities';
import { Employee } from './entities';
import { employeeDto } from './dto';
import { inEffect, furtherLocations, localDate } from './effective-dating';
import { assertEmployeeInReach, assertNotArchived, checkAssignment, commitChange, employeeForChange, type PositionsList } from './store';

/** A location's time zone (replica, read through on a miss; UTC when nobody knows it). */
async function timezoneOf(w: Work, locationId: string): Promise<string> {
  const map = await resolveLocations(w, [{ locationId }]);
  return map.byId.get(locationId)?.timezone ?? 'UTC';
}

/**
 * `:transfer`: a new home location, department or further locations from `effectiveDate`. On or
 * before today at the new home location it applies at once (`employee.transferred`); a later date is
 * kept as `scheduledTransfer` (`employee.updated`) and applied on that day by the effective-changes worker.
 */
export async function transferEmployee(w: Work, id: string, body: z.output<typeof EmployeeTransfer>, positionsList: PositionsList) {
  const e = await employeeForChange(w, id);
  assertNotArchived(e);
  if (e.status !== 'active') throw new Conflict(`Employee ${e.id} is terminated: rehire before a transfer.`);
  const homeLocationId = body.homeLocationId ?? e.homeLocationId;
  const departmentId = body.departmentId !== undefined ? body.departmentId : (e.departmentId ?? null);
  const locationIds = furtherLocations(homeLocationId, body.locationIds ?? e.locationIds);
  if (homeLocationId === e.homeLocationId && departmentId === (e.departmentId ?? null) && JSON.stringify(locationIds) === JSON.stringify(e.locationIds)) {
    throw new ValidationError([{ path: '', message: 'The transfer changes neither the home location, the department nor the further locations.' }]);
  }
  assertEmployeeInReach(w.reach(), { homeLocationId, locationIds: [] });
  const { timezone } = await checkAssignment(w, { homeLocationId, locationIds, departmentId }, positionsList);
  if (e.terminationDate && body.effectiveDate >= e.terminationDate) {
    throw new ValidationError([{ path: 'effectiveDate', message: `The employment ends on ${e.terminationDate}; a transfer must take effect before.` }]);
  }
  const before = employeeDto(e);
  if (inEffect(body.effectiveDate, localDate(timezone, w.now))) {
    Object.assign(e, { homeLocationId, departmentId, locationIds, scheduledTransfer: null });
    return commitChange(w, e, before, { action: 'transferred', event: 'employee.transferred' });
  }
  e.scheduledTransfer = { effectiveDate: body.effectiveDate, homeLocationId, departmentId, locationIds };
  return commitChange(w, e, before, { action: 'transfer_scheduled', event: 'employee.updated' });
}

/**
 * `:terminate`: employment ends from `effectiveDate` with a reason (spec: terminated from that date,
 * until then active with a termination date). `employee.terminated` is recorded now either way; the
 * status changes at once when the date has come at the home location, else on that day.
 */
export async function terminateEmployee(w: Work, id: string, body: z.output<typeof EmployeeTerminate>) {
  const e = await employeeForChange(w, id);
  assertNotArchived(e);
  return recordTermination(w, e, body.effectiveDate, body.reason);
}

/** Records a termination on a locked employee (also the HR feed's newly set termination date). */
export async function recordTermination(w: Work, e: Employee, effectiveDate: string, reason: string | null) {
  if (e.status === 'terminated') throw new Conflict(`Employee ${e.id} was terminated on ${e.terminationDate}.`);
  // the same termination sent again records nothing; another date for one still to come moves it
  if (e.terminationDate === effectiveDate && (e.terminationReason ?? null) === reason) return employeeDto(e);
  if (effectiveDate < e.hireDate) throw new ValidationError([{ path: 'effectiveDate', message: `The employment began on ${e.hireDate}; it cannot end before.` }]);
  const before = employeeDto(e);
  e.terminationDate = effectiveDate;
  e.terminationReason = reason;
  if (e.scheduledTransfer && e.scheduledTransfer.effectiveDate >= effectiveDate) e.scheduledTransfer = null;
  const due = inEffect(effectiveDate, localDate(await timezoneOf(w, e.homeLocationId), w.now));
  if (due) e.status = 'terminated';
  return commitChange(w, e, before, { action: due ? 'terminated' : 'termination_scheduled', event: 'employee.terminated' });
}

/** `:rehire`: a terminated employee employed again from `effectiveDate`; the earlier period is kept in `employmentHistory`. */
export async function rehireEmployee(w: Work, id: string, body: z.output<typeof EmployeeRehire>, positionsList: PositionsList) {
  const e = await employeeForChange(w, id);
  assertNotArchived(e);
  if (e.status !== 'terminated') throw new Conflict(`Employee ${e.id} is active${e.terminationDate ? ` (terminated from ${e.terminationDate})` : ''}: only a terminated employee can be rehired.`);
  if (body.effectiveDate <= e.terminationDate!) throw new ValidationError([{ path: 'effectiveDate', message: `The last employment ended on ${e.terminationDate}; a rehire starts after it.` }]);
  const homeLocationId = body.homeLocationId ?? e.homeLocationId;
  const departmentId = body.departmentId !== undefined ? body.departmentId : (e.departmentId ?? null);
  assertEmployeeInReach(w.reach(), { homeLocationId, locationIds: [] });
  const locationIds = furtherLocations(homeLocationId, e.locationIds);
  await checkAssignment(w, { homeLocationId, locationIds, departmentId }, positionsList);
  const before = employeeDto(e);
  e.employmentHistory = [...(e.employmentHistory ?? []), { hireDate: e.hireDate, terminationDate: e.terminationDate!, terminationReason: e.terminationReason ?? null }];
  Object.assign(e, { status: 'active', hireDate: body.effectiveDate, terminationDate: null, terminationReason: null, homeLocationId, departmentId, locationIds });
  return commitChange(w, e, before, { action: 'rehired', event: 'employee.updated' });
}

/** A scheduled transfer or termination whose day has come at the employee's (new) home location. */
export interface DueChange {
  employeeId: string;
  transferDue: boolean;
  terminationDue: boolean;
}

/**
 * The effective-changes worker's candidates: every employee with a scheduled transfer or termination
 * whose day has come at the employee's (new) home location (the unit's instant).
 */
export async function dueChanges(w: Work): Promise<DueChange[]> {
  const { em } = w;
  const scheduled = await em.find(Employee, { $or: [{ scheduledTransfer: { $ne: null } }, { status: 'active', terminationDate: { $ne: null } }] }, { fields: ['id', 'homeLocationId', 'scheduledTransfer', 'terminationDate'], orderBy: { id: 'asc' } });
  const locationIds = [...new Set(scheduled.flatMap((e) => [e.homeLocationId, e.scheduledTransfer?.homeLocationId].filter((x): x is string => Boolean(x))))];
  const zones = new Map((await em.find(PeopleLocation, { id: { $in: locationIds } }, { fields: ['id', 'timezone'] })).map((l) => [l.id, l.timezone]));
  const due: DueChange[] = [];
  for (const e of scheduled) {
    const homeTz = zones.get(e.homeLocationId) ?? null;
    const transferTz = e.scheduledTransfer ? (zones.get(e.scheduledTransfer.homeLocationId) ?? null) : null;
    const transferDate = e.scheduledTransfer?.effectiveDate ?? null;
    const terminationDate = e.terminationDate ?? null;
    const transferDue = transferDate !== null && inEffect(transferDate, localDate(transferTz ?? homeTz ?? 'UTC', w.now));
    const terminationDue = terminationDate !== null && inEffect(terminationDate, localDate(homeTz ?? 'UTC', w.now));
    if (transferDue || terminationDue) due.push({ employeeId: e.id, transferDue, terminationDue });
  }
  return due;
}

/** Applies one employee's due changes in a unit of its own (actor `system`). Answers how many changes were applied. */
export async function applyDueChange(w: Work, c: DueChange): Promise<number> {
  const e = await w.em.findOne(Employee, { id: c.employeeId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!e || e.status === 'archived') return 0;
  let n = 0;
  if (c.transferDue && e.scheduledTransfer) {
    const before = employeeDto(e);
    const t = e.scheduledTransfer;
    Object.assign(e, { homeLocationId: t.homeLocationId, departmentId: t.departmentId, locationIds: t.locationIds, scheduledTransfer: null });
    commitChange(w, e, before, { action: 'transferred', event: 'employee.transferred' });
    n += 1;
  }
  if (c.terminationDue && e.status === 'active' && e.terminationDate) {
    const before = employeeDto(e);
    e.status = 'terminated';
    commitChange(w, e, before, { action: 'terminated', event: 'employee.updated' });
    n += 1;
  }
  return n;
}

/** The personal fields of an employee record; anonymisation clears them while ids, dates and figures stay. */
const PERSONAL_FIELDS = ['legalFirstName', 'legalLastName', 'preferredName', 'email', 'phone', 'address', 'birthDate', 'terminationReason', 'emergencyContacts'];

/** Archived employees looked at per round of anonymisation. */
export const ANONYMISE_PER_ROUND = 100;

/**
 * The archived employees whose retention period (company settings `employeeRetentionDays`) has
 * passed and who are not yet anonymised (at most ANONYMISE_PER_ROUND, by id).
 */
export async function expiredEmployees(w: Work, retentionDays: number): Promise<string[]> {
  const cutoff = new Date(w.now.getTime() - retentionDays * 86_400_000);
  const due = await w.em.find(Employee, { status: 'archived', anonymisedAt: null, archivedAt: { $lt: cutoff } }, { fields: ['id'], orderBy: { id: 'asc' }, limit: ANONYMISE_PER_ROUND });
  return due.map((e) => e.id);
}

/**
 * Anonymises an archived employee (a unit of its own, actor `system`): names become "Former
 * employee", contact details, address, birth date, emergency contacts and the termination reason go,
 * also from the audit trail; ids, dates, places of work and pay rates stay. `employee.updated` tells the replicas.
 */
export async function anonymiseEmployee(w: Work, id: string): Promise<void> {
  const e = await w.em.findOne(Employee, { id, anonymisedAt: null }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!e) return;
  // neither the audit entry nor the event's `previous` may carry what is being erased
  const before = Object.fromEntries(Object.entries(employeeDto(e)).map(([k, v]) => [k, PERSONAL_FIELDS.includes(k) && v !== null ? '(erased)' : v])) as ReturnType<typeof employeeDto>;
  Object.assign(e, { legalFirstName: 'Former', legalLastName: 'employee', preferredName: null, email: null, phone: null, address: null, birthDate: null, terminationReason: null, emergencyContacts: [], anonymisedAt: w.now });
  for (const entry of await w.em.find(Activity, { employeeId: id })) {
    entry.changes = entry.changes.map((c) => (PERSONAL_FIELDS.includes(c.field) ? { field: c.field, from: null, to: null } : c));
  }
  commitChange(w, e, before, { action: 'anonymised', event: 'employee.updated' });
}
