import type { Certification } from './entities';

export function certificationDto(c: Certification) {
  return {
    id: c.id,
    employeeId: c.employeeId,
    name: c.name,
    issuer: c.issuer ?? null,
    issuedOn: c.issuedOn,
    expiresOn: c.expiresOn ?? null,
    attachmentId: c.attachmentId ?? null,
    status: c.status,
    version: c.version,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}
