import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import type { PersonalDataset, ProfilePatch } from '@bop/contracts';
import { NotFound, ownEmployeeId, type Work } from '@bop/shared';
import { Employee } from '../employees/entities';
import { employeeDto } from '../employees/dto';
import { commitChange, setContacts } from '../employees/store';
import { Activity } from '../activity/entities';
import { PayRate } from '../pay-rates/entities';
import { payRateDto } from '../pay-rates/dto';
import { EmployeeDocument } from '../documents/entities';
import { documentDto } from '../documents/dto';
import { Certification } from '../certifications/entities';
import { certificationDto } from '../certifications/dto';

/** The caller's own employee record (on `/me` rows the unit's actor is the employee). */
async function ownEmployee(w: Work, lock = false): Promise<Employee> {
  const id = ownEmployeeId(w.actor);
  const e = await w.em.findOne(Employee, { id }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!e) throw new NotFound('employee record of your account', id);
  return e;
}

const profileOf = (e: Employee) => ({ ...employeeDto(e), emergencyContacts: (e.emergencyContacts ?? []).map((c) => ({ ...c, email: c.email ?? null })) });

export async function getProfile(w: Work) {
  return profileOf(await ownEmployee(w));
}

/** The employee changes their contact details and emergency contacts (actor: the employee; `employee.updated`). */
export async function patchProfile(w: Work, body: z.output<typeof ProfilePatch>) {
  const e = await ownEmployee(w, true);
  const before = employeeDto(e);
  for (const field of ['preferredName', 'email', 'phone', 'address'] as const) if (body[field] !== undefined) (e as Record<string, unknown>)[field] = body[field];
  if (JSON.stringify(before) !== JSON.stringify(employeeDto(e))) commitChange(w, e, before, { action: 'updated', event: 'employee.updated' });
  if (body.emergencyContacts !== undefined) setContacts(w, e, body.emergencyContacts, 'emergency_contacts_replaced');
  return profileOf(e);
}

/** Everything people holds about an employee, as datasets for `/me/export`. */
export async function peopleDatasets(w: Work, employeeId: string | null): Promise<PersonalDataset[]> {
  const { em } = w;
  const e = employeeId ? await em.findOne(Employee, { id: employeeId }) : null;
  if (!e) return [];
  const byId = { orderBy: { id: 'asc' as const } };
  return [
    { name: 'employee-record', description: 'Your employee record: names, contact details, places of work, positions, dates.', rows: [employeeDto(e)] },
    { name: 'emergency-contacts', description: 'The emergency contacts on your record.', rows: (e.emergencyContacts ?? []) as unknown as Record<string, unknown>[] },
    { name: 'employment-history', description: 'Your earlier periods of employment.', rows: (e.employmentHistory ?? []) as unknown as Record<string, unknown>[] },
    { name: 'pay-rates', description: 'Your pay rates with the dates they apply from.', rows: (await em.find(PayRate, { employeeId: e.id }, byId)).map(payRateDto) },
    { name: 'documents', description: 'The documents on your file (details; the files themselves are listed by the files service).', rows: (await em.find(EmployeeDocument, { employeeId: e.id }, byId)).map(documentDto) },
    { name: 'certifications', description: 'Your certifications.', rows: (await em.find(Certification, { employeeId: e.id }, byId)).map(certificationDto) },
    {
      name: 'record-changes',
      description: 'Every change made to your record: who, what, when.',
      rows: (await em.find(Activity, { employeeId: e.id }, { orderBy: { id: 'asc' } })).map((a) => ({ id: a.id, at: a.at.toISOString(), actor: a.actor, action: a.action, changes: a.changes })),
    },
  ];
}

