import type { Employee } from './entities';

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
