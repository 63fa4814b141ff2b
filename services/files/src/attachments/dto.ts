import type { Attachment } from './entities';

export function attachmentDto(a: Attachment) {
  return {
    id: a.id,
    fileName: a.fileName,
    contentType: a.contentType,
    size: Number(a.size),
    sha256: a.sha256,
    description: a.description ?? null,
    employeeId: a.employeeId ?? null,
    locationId: a.locationId ?? null,
    uploadedBy: { type: a.uploadedByType as 'user' | 'integration', id: a.uploadedById },
    status: a.status as 'active' | 'deleted',
    contentUrl: `/api/v1/attachments/${a.id}/content`,
    version: a.version,
    createdAt: a.createdAt.toISOString(),
    deletedAt: a.deletedAt ? a.deletedAt.toISOString() : null,
  };
}
