import type { EmployeeDocument } from './entities';

export function documentDto(d: EmployeeDocument) {
  return {
    id: d.id,
    employeeId: d.employeeId,
    attachmentId: d.attachmentId,
    type: d.type,
    title: d.title,
    expiresOn: d.expiresOn ?? null,
    visibleToEmployee: d.visibleToEmployee,
    status: d.status,
    version: d.version,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}
