import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import type { EmployeeExternalPut } from '@bop/contracts';
import { Conflict, type Work } from '@bop/shared';
import { Employee } from './entities';
import { employeeDto } from './dto';
import { furtherLocations, inEffect, localDate } from './effective-dating';
import { assertEmployeeInReach, canonicalPositions, checkAssignment, commitChange, newEmployeeRecord, personalFields, type NewEmployee, type PositionsList } from './store';
import { recordTermination } from './lifecycle-store';
import { recordPayRate } from '../pay-rates/store';

type Put = z.output<typeof EmployeeExternalPut>;

/** The personal fields an HR record replaces as a whole. */
type PlainField = 'employeeNumber' | 'legalFirstName' | 'legalLastName' | 'preferredName' | 'email' | 'phone' | 'address' | 'birthDate' | 'positions';

/**
 * `PUT /employees/external/{externalId}` from an HR tool, idempotent like every ingestion: a new
 * externalId creates (201, `created`); a known one is brought to what was sent (200, `updated`), or
 * left as it is when nothing is new (200, `unchanged`, no event). What the record carries decides the
 * events (supplement: event mapping): other personal fields → `employee.updated`; another home
 * location or department → a transfer from `effectiveDate` (`employee.transferred` once in effect);
 * a termination date newly set → `employee.terminated`; a rate not yet recorded → `pay_rate.changed`.
 * Fields left out are cleared (the HR tool's record is the whole record).
 */
export async function putEmployeeByExternalId(w: Work, externalId: string, body: Put, positionsList: PositionsList) {
  const locationIds = furtherLocations(body.homeLocationId, body.locationIds ?? []);
  const departmentId = body.departmentId ?? null;
  assertEmployeeInReach(w.reach(), { homeLocationId: body.homeLocationId, locationIds: [] });
  const { timezone } = await checkAssignment(w, { homeLocationId: body.homeLocationId, locationIds, departmentId, positions: body.positions }, positionsList);
  const positions = await canonicalPositions(body.positions ?? [], positionsList);
  const sent: Record<PlainField, unknown> = personalFields(body, positions);
  const { em } = w;
  const found = await em.findOne(Employee, { externalId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  let e: Employee;
  let changed = false;
  const created = !found;
  if (!found) {
    e = newEmployeeRecord(w, { ...(sent as Pick<NewEmployee, PlainField>), externalId, homeLocationId: body.homeLocationId, locationIds, departmentId, hireDate: body.hireDate });
    await em.flush();
    commitChange(w, e, null, { action: 'created', event: 'employee.created' });
  } else {
    e = found;
    assertEmployeeInReach(w.reach(), e);
    if (e.status === 'archived') throw new Conflict(`Employee ${e.id} (externalId ${externalId}) is archived; its record no longer changes.`);
    const before = employeeDto(e);
    const plain = { ...sent, hireDate: e.status === 'active' && !e.terminationDate ? body.hireDate : e.hireDate };
    if (Object.entries(plain).some(([k, v]) => JSON.stringify((e as Record<string, unknown>)[k] ?? null) !== JSON.stringify(v))) {
      Object.assign(e, plain);
      commitChange(w, e, before, { action: 'updated', event: 'employee.updated' });
      changed = true;
    }
    changed = applyAssignment(w, e, { homeLocationId: body.homeLocationId, departmentId, locationIds }, body.effectiveDate ?? localDate(timezone, w.now), timezone) || changed;
  }
  changed = (await applyTermination(w, e, body)) || changed;
  for (const [i, rate] of (body.payRates ?? []).entries()) {
    const { added } = await recordPayRate(w, e, rate, positionsList, `payRates[${i}]`);
    changed = added || changed;
  }
  await em.flush();
  const result = created ? 'created' : changed ? 'updated' : 'unchanged';
  return { status: created ? 201 : 200, body: { ...employeeDto(e), result } as const };
}

/** Another home location, department or further locations than the record has (or has scheduled): a transfer from `effectiveDate`. */
function applyAssignment(w: Work, e: Employee, to: { homeLocationId: string; departmentId: string | null; locationIds: string[] }, effectiveDate: string, timezone: string): boolean {
  const same = (a: { homeLocationId: string; departmentId: string | null; locationIds: string[] }) =>
    a.homeLocationId === to.homeLocationId && (a.departmentId ?? null) === to.departmentId && JSON.stringify(a.locationIds) === JSON.stringify(to.locationIds);
  if (same({ homeLocationId: e.homeLocationId, departmentId: e.departmentId ?? null, locationIds: e.locationIds })) {
    if (!e.scheduledTransfer) return false;
    // back to where the employee is: the scheduled transfer is off
    const before = employeeDto(e);
    e.scheduledTransfer = null;
    commitChange(w, e, before, { action: 'transfer_cancelled', event: 'employee.updated' });
    return true;
  }
  if (e.scheduledTransfer && e.scheduledTransfer.effectiveDate === effectiveDate && same(e.scheduledTransfer)) return false;
  if (e.status !== 'active') return false; // a terminated employee's place is set by the rehire
  const before = employeeDto(e);
  if (inEffect(effectiveDate, localDate(timezone, w.now))) {
    Object.assign(e, { ...to, scheduledTransfer: null });
    commitChange(w, e, before, { action: 'transferred', event: 'employee.transferred' });
  } else {
    e.scheduledTransfer = { effectiveDate, ...to };
    commitChange(w, e, before, { action: 'transfer_scheduled', event: 'employee.updated' });
  }
  return true;
}

/** The termination date the HR tool sends: newly set → a termination; moved or withdrawn before it took effect → an update. */
async function applyTermination(w: Work, e: Employee, body: Put): Promise<boolean> {
  const date = body.terminationDate ?? null;
  const reason = body.terminationReason ?? null;
  if (date === (e.terminationDate ?? null)) {
    if (date === null || reason === (e.terminationReason ?? null)) return false;
    const before = employeeDto(e);
    e.terminationReason = reason;
    commitChange(w, e, before, { action: 'updated', event: 'employee.updated' });
    return true;
  }
  if (e.status === 'terminated') return false; // ended: a new employment comes through :rehire
  if (e.terminationDate === null || e.terminationDate === undefined) {
    await recordTermination(w, e, date!, reason ?? 'Ended in the HR system.');
    return true;
  }
  // a termination still to come, moved or withdrawn
  const before = employeeDto(e);
  e.terminationDate = date;
  e.terminationReason = date ? reason : null;
  commitChange(w, e, before, { action: date ? 'termination_rescheduled' : 'termination_withdrawn', event: 'employee.updated' });
  return true;
}
