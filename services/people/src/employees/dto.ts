import type { Employee } from './entities';
import type { ResolvedEmployee } from '@bop/contracts';

export function employeeDto(e: Employee) {
  return {
    id: e.id,
    employeeNumber: e.employeeNumber ?? null,
    externalId: e.externalId ?? null,
    legalFirstName: e.legalFirstName,
    legalLastName: e.legalLastName,
    preferredName: e.preferredName ?? null,
    email: e.email ?? null,
    phone: e.phone ?? null,
    address: (e.address ?? null) as { line1: string; line2?: string | null; city: string; region?: string | null; postalCode?: string | null; country: string } | null,
    birthDate: e.birthDate ?? null,
    homeLocationId: e.homeLocationId,
    locationIds: [...(e.locationIds ?? [])],
    departmentId: e.departmentId ?? null,
    positions: [...(e.positions ?? [])],
    hireDate: e.hireDate,
    status: e.status,
    terminationDate: e.terminationDate ?? null,
    terminationReason: e.terminationReason ?? null,
    scheduledTransfer: e.scheduledTransfer ?? null,
    userId: e.userId ?? null,
    employmentHistory: e.employmentHistory ?? [],
    version: e.version,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
    archivedAt: e.archivedAt ? e.archivedAt.toISOString() : null,
    anonymisedAt: e.anonymisedAt ? e.anonymisedAt.toISOString() : null,
  };
}

export type EmployeeDto = ReturnType<typeof employeeDto>;

/** The employee as other services' replicas keep it (`POST /internal/employees:resolve`), with its pay rates. */
export function replicatedEmployee(e: Employee, rates: Array<{ id: string; type: string; amount: string; position?: string | null; effectiveDate: string }> | null): ResolvedEmployee {
  return {
    id: e.id,
    externalId: e.externalId ?? null,
    employeeNumber: e.employeeNumber ?? null,
    firstName: e.preferredName ?? e.legalFirstName,
    lastName: e.legalLastName,
    status: e.status,
    homeLocationId: e.homeLocationId,
    locationIds: e.locationIds,
    departmentId: e.departmentId ?? null,
    positions: e.positions,
    hireDate: e.hireDate,
    terminationDate: e.terminationDate ?? null,
    userId: e.userId ?? null,
    version: e.version,
    updatedAt: e.updatedAt.toISOString(),
    ...(rates ? { payRates: rates.map((r) => ({ id: r.id, type: r.type as 'hourly' | 'salary', amount: r.amount, position: r.position ?? null, effectiveDate: r.effectiveDate })) } : {}),
  };
}
