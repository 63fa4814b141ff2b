import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import type { EmployeeExternalPut } from '@bop/contracts';
import { Conflict, now, type EntityManager } from '@bop/shared';
import { Employee } from './entities';
import { employeeDto } from './dto';
import { furtherLocations, inEffect, localDate } from './effective-dating';
import { assertEmployeeInReach, canonicalPositions, checkAssignment, commitChange, newEmployeeRecord, personalFields, uniqueConflict, type Caller, type NewEmployee, type PositionsList } from './store';
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
export async function putEmployeeByExternalId(em: EntityManager, externalId: string, body: Put, caller: Caller, positionsList: PositionsList) {
  const locationIds = furtherLocations(body.homeLocationId, body.locationIds ?? []);
  const departmentId = body.departmentId ?? null;
  assertEmployeeInReach(caller.reach(), { homeLocationId: body.homeLocationId, locationIds: [] });
  const { timezone } = await checkAssignment(em, { homeLocationId: body.homeLocationId, locationIds, departmentId, positions: body.positions }, positionsList);
  const positions = await canonicalPositions(body.positions ?? [], positionsList);
  const sent: Record<PlainField, unknown> = personalFields(body, positions);
  try {
    return await em.transactional(async (tem) => {
      const found = await tem.findOne(Employee, { externalId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      let e: Employee;
      let changed = false;
      const created = !found;
      if (!found) {
        e = newEmployeeRecord(tem, { ...(sent as Pick<NewEmployee, PlainField>), externalId, homeLocationId: body.homeLocationId, locationIds, departmentId, hireDate: body.hireDate });
        await tem.flush();
        commitChange(tem, e, null, { action: 'created', event: 'employee.created', actor: caller.principal });
      } else {
        e = found;
        assertEmployeeInReach(caller.reach(), e);
        if (e.status === 'archived') throw new Conflict(`Employee ${e.id} (externalId ${externalId}) is archived; its record no longer changes.`);
        const before = employeeDto(e);
        const plain = { ...sent, hireDate: e.status === 'active' && !e.terminationDate ? body.hireDate : e.hireDate };
        if (Object.entries(plain).some(([k, v]) => JSON.stringify((e as Record<string, unknown>)[k] ?? null) !== JSON.stringify(v))) {
          Object.assign(e, plain);
          commitChange(tem, e, before, { action: 'updated', event: 'employee.updated', actor: caller.principal });
          changed = true;
        }
        changed = applyAssignment(tem, e, { homeLocationId: body.homeLocationId, departmentId, locationIds }, body.effectiveDate ?? localDate(timezone, now()), timezone, caller) || changed;
      }
      changed = (await applyTermination(tem, e, body, caller)) || changed;
      for (const [i, rate] of (body.payRates ?? []).entries()) {
        const { added } = await recordPayRate(tem, e, rate, caller.principal, positionsList, `payRates[${i}]`);
        changed = added || changed;
      }
      await tem.flush();
      const result = created ? 'created' : changed ? 'updated' : 'unchanged';
      return { status: created ? 201 : 200, body: { ...employeeDto(e), result } as const };
    });
  } catch (err) {
    throw uniqueConflict(err);
  }
}

/** Another home location, department or further locations than the record has (or has scheduled): a transfer from `effectiveDate`. */
function applyAssignment(em: EntityManager, e: Employee, to: { homeLocationId: string; departmentId: string | null; locationIds: string[] }, effectiveDate: string, timezone: string, caller: Caller): boolean {
  const same = (a: { homeLocationId: string; departmentId: string | null; locationIds: string[] }) =>
    a.homeLocationId === to.homeLocationId && (a.departmentId ?? null) === to.departmentId && JSON.stringify(a.locationIds) === JSON.stringify(to.locationIds);
  if (same({ homeLocationId: e.homeLocationId, departmentId: e.departmentId ?? null, locationIds: e.locationIds })) {
    if (!e.scheduledTransfer) return false;
    // back to where the employee is: the scheduled transfer is off
    const before = employeeDto(e);
    e.scheduledTransfer = null;
    commitChange(em, e, before, { action: 'transfer_cancelled', event: 'employee.updated', actor: caller.principal });
    return true;
  }
  if (e.scheduledTransfer && e.scheduledTransfer.effectiveDate === effectiveDate && same(e.scheduledTransfer)) return false;
  if (e.status !== 'active') return false; // a terminated employee's place is set by the rehire
  const before = employeeDto(e);
  if (inEffect(effectiveDate, localDate(timezone, now()))) {
    Object.assign(e, { ...to, scheduledTransfer: null });
    commitChange(em, e, before, { action: 'transferred', event: 'employee.transferred', actor: caller.principal });
  } else {
    e.scheduledTransfer = { effectiveDate, ...to };
    commitChange(em, e, before, { action: 'transfer_scheduled', event: 'employee.updated', actor: caller.principal });
  }
  return true;
}

/** The termination date the HR tool sends: newly set → a termination; moved or withdrawn before it took effect → an update. */
async function applyTermination(em: EntityManager, e: Employee, body: Put, caller: Caller): Promise<boolean> {
  const date = body.terminationDate ?? null;
  const reason = body.terminationReason ?? null;
  if (date === (e.terminationDate ?? null)) {
    if (date === null || reason === (e.terminationReason ?? null)) return false;
    const before = employeeDto(e);
    e.terminationReason = reason;
    commitChange(em, e, before, { action: 'updated', event: 'employee.updated', actor: caller.principal });
    return true;
  }
  if (e.status === 'terminated') return false; // ended: a new employment comes through :rehire
  if (e.terminationDate === null || e.terminationDate === undefined) {
    await recordTermination(em, e, date!, reason ?? 'Ended in the HR system.', caller.principal);
    return true;
  }
  // a termination still to come, moved or withdrawn
  const before = employeeDto(e);
  e.terminationDate = date;
  e.terminationReason = date ? reason : null;
  commitChange(em, e, before, { action: date ? 'termination_rescheduled' : 'termination_withdrawn', event: 'employee.updated', actor: caller.principal });
  return true;
}
