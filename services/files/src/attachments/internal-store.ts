import { LockMode } from '@mikro-orm/core';
import type { PersonalDataset } from '@bop/contracts';
import { NotFound, ValidationError, type Principal, type Work } from '@bop/shared';
import { Attachment } from './entities';
import { attachmentDto } from './dto';
import { canRead } from './access';
import { viewerOf } from './store';
import { sharedWith } from './audience-store';

/**
 * The active attachments among `ids`, in the order asked (unknown and deleted ones are absent), each
 * saying whether `viewer` may see it by the rule `GET /attachments/{id}` applies, audiences included
 * (no viewer: true).
 */
export async function resolveAttachments(w: Work, ids: string[], viewer?: Principal) {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return [];
  const rows = await w.em.find(Attachment, { id: { $in: wanted }, status: 'active' });
  const byId = new Map(rows.map((a) => [a.id, a]));
  const v = viewer ? await viewerOf(w, viewer) : null;
  const shared = v ? await sharedWith(w.em, rows.map((a) => a.id), v.employeeId) : new Set<string>();
  return wanted
    .map((id) => byId.get(id))
    .filter((a): a is Attachment => a !== undefined)
    .map((a) => ({ ...attachmentDto(a), visibleToViewer: v ? canRead(a, v) || shared.has(a.id) : true }));
}

/**
 * Sets (or clears) the employee an attachment concerns, who may then read it; the version moves only
 * when the employee changes, so people may repeat the call. No public event: the spec's catalogue
 * has no `attachment.updated`.
 */
export async function concernAttachment(w: Work, id: string, employeeId: string | null) {
  if (employeeId !== null && !employeeId.startsWith('emp_')) throw new ValidationError([{ path: 'employeeId', message: `${employeeId} is not an employee id.` }]);
  const att = await w.em.findOne(Attachment, { id, status: 'active' }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!att) throw new NotFound('attachment', id);
  if ((att.employeeId ?? null) !== employeeId) {
    att.employeeId = employeeId;
    att.version += 1;
  }
  return attachmentDto(att);
}

/** What files holds about a person: the details (not the bytes) of the active files they uploaded and of those concerning their employee record. */
export async function personalAttachments(w: Work, userId: string | null, employeeId: string | null): Promise<PersonalDataset[]> {
  const order = { createdAt: 'asc', id: 'asc' } as const;
  const uploaded = userId ? await w.em.find(Attachment, { status: 'active', uploadedById: userId }, { orderBy: order }) : [];
  const concerning = employeeId ? await w.em.find(Attachment, { status: 'active', employeeId }, { orderBy: order }) : [];
  return [
    { name: 'attachments-uploaded', description: 'The files you uploaded: their details, not their content.', rows: uploaded.map(attachmentDto) },
    { name: 'attachments-concerning-you', description: 'The files that concern your employee record: their details, not their content.', rows: concerning.map(attachmentDto) },
  ];
}
