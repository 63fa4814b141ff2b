import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import { AttachmentUploadForm, type AttachmentListQuery, type MyAttachmentListQuery } from '@bop/contracts';
import {
  Forbidden,
  NotFound,
  OutOfReach,
  ValidationError,
  changedFields,
  employeeRecordScope,
  employeeScopeCondition,
  findPage,
  locationsInOrgUnitsOf,
  mapPage,
  now,
  reachFor,
  recordEvent,
  writableLocations,
  zodFieldErrors,
  type EntityManager,
  type FieldError,
  type ObjectStorage,
  type Principal,
  type ReachSet,
} from '@bop/shared';
import { Attachment } from './entities';
import { attachmentDto } from './dto';
import { canDelete, canRead, type Viewer } from './access';
import { chooseRange } from './byte-range';
import type { ReceivedUpload } from './upload-store';

const locationsInOrgUnits = locationsInOrgUnitsOf('files');

/** A permission's reach with its org units resolved to the locations in them (files' replica). */
async function resolvedReach(em: EntityManager, principal: Principal, permission: string): Promise<ReachSet | null> {
  const reach = reachFor(principal, permission);
  if (!reach || reach.everyone || reach.orgUnitIds.size === 0) return reach;
  const ids = await locationsInOrgUnits(em, [...reach.orgUnitIds]);
  return { ...reach, locationIds: new Set([...reach.locationIds, ...ids]), orgUnitsResolved: true };
}

export async function viewerOf(em: EntityManager, principal: Principal): Promise<Viewer> {
  return {
    id: principal.id,
    employeeId: principal.employeeId ?? null,
    read: await resolvedReach(em, principal, 'attachments.read'),
    manage: await resolvedReach(em, principal, 'attachments.manage'),
  };
}

/** The storage key of an attachment's bytes. */
export const storageKeyOf = (id: string) => `attachments/${id}`;

/**
 * Records an upload whose bytes are stored: its form fields checked (an unknown or archived location
 * is a field error), the row and `attachment.uploaded` in one transaction. Refused: the bytes go.
 */
export async function recordUpload(em: EntityManager, storage: ObjectStorage, id: string, upload: ReceivedUpload, principal: Principal, checkEmployee: (id: string) => Promise<FieldError | null>) {
  try {
    const parsed = AttachmentUploadForm.safeParse(upload.fields);
    if (!parsed.success) throw new ValidationError(zodFieldErrors(parsed.error), 'The upload has invalid fields.');
    const form = parsed.data;
    if (form.employeeId !== undefined) {
      const wrong = await checkEmployee(form.employeeId);
      if (wrong) throw new ValidationError([wrong]);
    }
    if (form.locationId !== undefined) {
      const { errors } = await writableLocations(em, 'files', [{ id: form.locationId, path: 'locationId', takes: 'files' }]);
      if (errors.length > 0) throw new ValidationError(errors);
    }
    return await em.transactional(async (tem) => {
      const att = tem.create(Attachment, {
        id,
        fileName: upload.fileName,
        contentType: upload.contentType,
        size: upload.stored.size,
        sha256: upload.stored.sha256!,
        storageKey: storageKeyOf(id),
        description: form.description ?? null,
        employeeId: form.employeeId ?? null,
        locationId: form.locationId ?? null,
        uploadedByType: principal.kind === 'integration' ? 'integration' : 'user',
        uploadedById: principal.id,
        status: 'active',
        version: 1,
        createdAt: now(),
        deletedAt: null,
        contentRemovedAt: null,
      });
      const object = attachmentDto(att);
      recordEvent(tem, { type: 'attachment.uploaded', aggregateType: 'attachment', aggregateId: id, locationId: att.locationId ?? null, object, actor: principal });
      return object;
    });
  } catch (err) {
    await storage.delete(storageKeyOf(id)).catch(() => undefined);
    throw err;
  }
}

/** An active attachment the viewer may see; anyone else is told it does not exist (spec: Attachments). */
async function visibleAttachment(em: EntityManager, id: string, viewer: Viewer, lock = false): Promise<Attachment> {
  const att = await em.findOne(Attachment, { id, status: 'active' }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!att || !canRead(att, viewer)) throw new NotFound('attachment', id);
  return att;
}

export async function getAttachment(em: EntityManager, id: string, principal: Principal) {
  return attachmentDto(await visibleAttachment(em, id, await viewerOf(em, principal)));
}

/** The download: the whole file, or the one byte range asked for (206), streamed from the storage. */
export async function openContent(em: EntityManager, storage: ObjectStorage, id: string, principal: Principal, headers: { range?: string; 'if-range'?: string }) {
  const att = await visibleAttachment(em, id, await viewerOf(em, principal));
  const size = Number(att.size);
  const etag = `"${att.sha256}"`;
  const choice = chooseRange(size, headers.range, headers['if-range'], etag);
  const common: Record<string, string> = {
    'Content-Type': att.contentType,
    'Content-Disposition': contentDisposition(att.fileName),
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'private, no-store',
    'Accept-Ranges': 'bytes',
    ETag: etag,
  };
  if (choice.kind === 'unsatisfiable') return { unsatisfiable: true as const, size };
  const range = choice.kind === 'partial' ? { start: choice.start, end: choice.end } : undefined;
  const stream = await storage.get(att.storageKey, range);
  if (!stream) throw new NotFound('attachment content', id);
  if (range) {
    return { status: 206, stream, headers: { ...common, 'Content-Length': String(range.end - range.start + 1), 'Content-Range': `bytes ${range.start}-${range.end}/${size}` } };
  }
  return { status: 200, stream, headers: { ...common, 'Content-Length': String(size) } };
}

/** `attachment; filename="…"; filename*=UTF-8''…` (RFC 6266): the ASCII fallback and the exact name. */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/**
 * Deletes an attachment: the record stays (status `deleted`, for the history that refers to it) and
 * `attachment.deleted` is recorded in the same transaction; the bytes are removed after the commit
 * (a failed removal is retried by the removal worker).
 */
export async function deleteAttachment(em: EntityManager, storage: ObjectStorage, id: string, principal: Principal, checkVersion: (v: number) => void) {
  const viewer = await viewerOf(em, principal);
  const object = await em.transactional(async (tem) => {
    const att = await visibleAttachment(tem, id, viewer, true);
    if (!canDelete(att, viewer)) {
      if (viewer.manage) throw new OutOfReach(`Your permission attachments.manage does not reach attachment ${id}.`);
      throw new Forbidden('Only the uploader or a holder of attachments.manage may delete this file.');
    }
    checkVersion(att.version);
    const before = attachmentDto(att);
    att.status = 'deleted';
    att.deletedAt = now();
    att.version += 1;
    const after = attachmentDto(att);
    recordEvent(tem, { type: 'attachment.deleted', aggregateType: 'attachment', aggregateId: id, locationId: att.locationId ?? null, object: after, previous: changedFields(before, after), actor: principal });
    return after;
  });
  await removeContent(em.fork(), storage, id).catch(() => undefined);
  return object;
}

/** Removes the bytes of a deleted attachment and notes it; answers false when the storage failed. */
export async function removeContent(em: EntityManager, storage: ObjectStorage, id: string): Promise<boolean> {
  await storage.delete(storageKeyOf(id));
  await em.nativeUpdate(Attachment, { id, status: 'deleted', contentRemovedAt: null }, { contentRemovedAt: now() });
  return true;
}

/** Deleted attachments whose bytes are still in the storage (oldest first). */
export async function pendingRemovals(em: EntityManager, limit: number): Promise<string[]> {
  const rows = await em.find(Attachment, { status: 'deleted', contentRemovedAt: null }, { fields: ['id'], orderBy: { deletedAt: 'asc' }, limit });
  return rows.map((r) => r.id);
}

/** A page of the attachments `attachments.read` reaches (a file of no location needs reach Everyone). */
export async function listAttachments(em: EntityManager, query: z.output<typeof AttachmentListQuery>, principal: Principal) {
  const { limit, cursor, employeeId, locationId, uploadedBy, contentType, createdSince } = query;
  const reach = await resolvedReach(em, principal, 'attachments.read');
  if (!reach) throw new Forbidden('You lack the permission attachments.read.');
  const scope = employeeRecordScope(reach, locationId);
  const page = await findPage(
    em,
    Attachment,
    [
      { status: 'active' },
      employeeId && { employeeId },
      uploadedBy && { uploadedById: uploadedBy },
      contentType && { contentType: contentType.toLowerCase() },
      createdSince && { createdAt: { $gte: new Date(createdSince) } },
      employeeScopeCondition<Attachment>(scope, { location: (ids) => ({ locationId: ids }), employee: (ids) => ({ employeeId: ids }) }),
    ],
    { limit, cursor },
  );
  return mapPage(page, attachmentDto);
}

/** `/me/attachments`: the files the caller uploaded and those that concern the caller's employee record. */
export async function listMyAttachments(em: EntityManager, query: z.output<typeof MyAttachmentListQuery>, principal: Principal) {
  const mine = principal.employeeId ? { $or: [{ uploadedById: principal.id }, { employeeId: principal.employeeId }] } : { uploadedById: principal.id };
  const page = await findPage(em, Attachment, [{ status: 'active' }, mine], query);
  return mapPage(page, attachmentDto);
}
