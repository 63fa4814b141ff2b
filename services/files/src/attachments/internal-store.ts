import { LockMode } from '@mikro-orm/core';
import { Readable } from 'node:stream';
import type { GeneratedAttachmentCreate, PersonalDataset } from '@bop/contracts';
import { newId, NotFound, ValidationError, type ObjectStorage, type Principal, type RouteContext, type Work } from '@bop/shared';
import { Attachment } from './entities';
import { attachmentDto } from './dto';
import { canRead } from './access';
import { beginUpload, recordStoredFile, refusedUpload, storageKeyOf, viewerOf } from './store';
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

/**
 * Stores a file another service generated for `uploadedBy` (`POST /internal/attachments`): its bytes
 * first, named by an intent committed before them (as an upload is), then the record and
 * `attachment.uploaded` in one transaction. Over the upload limit: 422 on `contentBase64`, nothing kept.
 */
export async function storeGeneratedFile(ctx: RouteContext, storage: ObjectStorage, maxBytes: number, input: GeneratedAttachmentCreate) {
  const bytes = Buffer.from(input.contentBase64, 'base64');
  if (bytes.length > maxBytes) throw new ValidationError([{ path: 'contentBase64', message: `At most ${maxBytes} bytes.` }]);
  const id = newId('attachment');
  await ctx.transaction((w) => beginUpload(w, id));
  try {
    const stored = await storage.put(storageKeyOf(id), Readable.from([bytes]));
    return await ctx.transaction((w) =>
      recordStoredFile(w, id, { fileName: input.fileName, contentType: input.contentType, stored, description: input.description ?? null, employeeId: null, locationId: input.locationId, uploadedBy: input.uploadedBy }),
    );
  } catch (err) {
    await refusedUpload(ctx, storage, id);
    throw err;
  }
}
