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
  reachFor,
  writableLocations,
  zodFieldErrors,
  type EntityManager,
  type FieldError,
  type ObjectStorage,
  type Principal,
  type ReachSet,
  type RouteContext,
  type StoredObject,
  type Work,
} from '@bop/shared';
import { Attachment, UploadIntent } from './entities';
import { attachmentDto } from './dto';
import { canDelete, canRead, type Viewer } from './access';
import { chooseRange } from './byte-range';
import type { ReceivedUpload } from './upload-store';
import { sharedWith } from './audience-store';

/** A permission's reach with its org units resolved to the locations in them (files' replica). */
async function resolvedReach(w: Work, principal: Principal, permission: string): Promise<ReachSet | null> {
  const reach = reachFor(principal, permission);
  if (!reach || reach.everyone || reach.orgUnitIds.size === 0) return reach;
  const ids = await locationsInOrgUnitsOf(w.schema)(w, [...reach.orgUnitIds]);
  return { ...reach, locationIds: new Set([...reach.locationIds, ...ids]), orgUnitsResolved: true };
}

/** The attachment rules' view of `principal` (the unit's actor, or a viewer another service names). */
export async function viewerOf(w: Work, principal: Principal): Promise<Viewer> {
  return {
    id: principal.id,
    employeeId: principal.employeeId ?? null,
    read: await resolvedReach(w, principal, 'attachments.read'),
    manage: await resolvedReach(w, principal, 'attachments.manage'),
  };
}

/** The storage key of an attachment's bytes. */
export const storageKeyOf = (id: string) => `attachments/${id}`;

/** Records that an upload's bytes are about to be stored (committed before they are: see UploadIntent). */
export async function beginUpload(w: Work, id: string): Promise<void> {
  await w.em.insert(UploadIntent, { id, storageKey: storageKeyOf(id), startedAt: w.now });
}

/** A refused upload whose bytes are gone: its intent goes too (when the bytes could not go, the sweeper retries). */
export async function endUpload(w: Work, id: string): Promise<void> {
  await w.em.nativeDelete(UploadIntent, { id });
}

/** Intents older than `before`: uploads that never ended (oldest first). */
export async function staleUploads(w: Work, before: Date, limit: number): Promise<UploadIntent[]> {
  return w.em.find(UploadIntent, { startedAt: { $lt: before } }, { orderBy: { startedAt: 'asc' }, limit });
}

/**
 * Removes what an upload that never ended left: its bytes, unless a record names them (then only the
 * intent was left), and the intent. The intent is locked (skipped when another sweeper holds it).
 */
export async function sweepUpload(w: Work, storage: ObjectStorage, id: string): Promise<'removed' | 'recorded' | 'gone'> {
  const intent = await w.em.findOne(UploadIntent, { id }, { lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE });
  if (!intent) return 'gone';
  const recorded = (await w.em.count(Attachment, { id })) > 0;
  if (!recorded) await storage.delete(intent.storageKey);
  await w.em.nativeDelete(UploadIntent, { id });
  return recorded ? 'recorded' : 'removed';
}

/**
 * Records an upload whose bytes are stored: its form fields checked (an unknown or archived location
 * is a field error), the row and `attachment.uploaded` in one transaction (the route's own: it held
 * none while the bytes streamed). Refused: the bytes go.
 */
export async function recordUpload(ctx: RouteContext, storage: ObjectStorage, id: string, upload: ReceivedUpload, checkEmployee: (id: string) => Promise<FieldError | null>) {
  try {
    const parsed = AttachmentUploadForm.safeParse(upload.fields);
    if (!parsed.success) throw new ValidationError(zodFieldErrors(parsed.error), 'The upload has invalid fields.');
    const form = parsed.data;
    if (form.employeeId !== undefined) {
      const wrong = await checkEmployee(form.employeeId);
      if (wrong) throw new ValidationError([wrong]);
    }
    if (form.locationId !== undefined) {
      const { errors } = await writableLocations(ctx, [{ id: form.locationId, path: 'locationId', takes: 'files' }]);
      if (errors.length > 0) throw new ValidationError(errors);
    }
    return await ctx.transaction((w) =>
      recordStoredFile(w, id, {
        fileName: upload.fileName,
        contentType: upload.contentType,
        stored: upload.stored,
        description: form.description ?? null,
        employeeId: form.employeeId ?? null,
        locationId: form.locationId ?? null,
        uploadedBy: { type: w.actor.kind === 'integration' ? 'integration' : 'user', id: w.actor.id },
      }),
    );
  } catch (err) {
    await refusedUpload(ctx, storage, id);
    throw err;
  }
}

/**
 * The record of a file whose bytes are stored (an upload's, or one another service generated), and
 * `attachment.uploaded`; its upload intent goes with the same commit (the bytes are named now).
 */
export async function recordStoredFile(
  w: Work,
  id: string,
  f: { fileName: string; contentType: string; stored: StoredObject; description: string | null; employeeId: string | null; locationId: string | null; uploadedBy: { type: 'user' | 'integration'; id: string } },
) {
  const att = w.em.create(Attachment, {
    id,
    fileName: f.fileName,
    contentType: f.contentType,
    size: f.stored.size,
    sha256: f.stored.sha256!,
    storageKey: storageKeyOf(id),
    description: f.description,
    employeeId: f.employeeId,
    locationId: f.locationId,
    uploadedByType: f.uploadedBy.type,
    uploadedById: f.uploadedBy.id,
    status: 'active',
    version: 1,
    createdAt: w.now,
    deletedAt: null,
    contentRemovedAt: null,
  });
  const object = attachmentDto(att);
  w.emit({ type: 'attachment.uploaded', aggregateType: 'attachment', aggregateId: id, locationId: att.locationId ?? null, object });
  await endUpload(w, id);
  return object;
}

/** An upload refused (or failed) before its record: its bytes go, then its intent; either failing leaves the intent for the sweeper. */
export async function refusedUpload(ctx: RouteContext, storage: ObjectStorage, id: string): Promise<void> {
  try {
    await storage.delete(storageKeyOf(id));
    await ctx.transaction((w) => endUpload(w, id));
  } catch {
    // the sweeper removes them later
  }
}

/** An active attachment the viewer may see (also as one of an audience communication named); anyone else is told it does not exist (spec: Attachments). */
async function visibleAttachment(em: EntityManager, id: string, viewer: Viewer, lock = false): Promise<Attachment> {
  const att = await em.findOne(Attachment, { id, status: 'active' }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!att || !(canRead(att, viewer) || (await sharedWith(em, [id], viewer.employeeId)).has(id))) throw new NotFound('attachment', id);
  return att;
}

export async function getAttachment(w: Work, id: string) {
  return attachmentDto(await visibleAttachment(w.em, id, await viewerOf(w, w.actor)));
}

/** The download: the whole file, or the one byte range asked for (206), streamed from the storage. */
export async function openContent(w: Work, storage: ObjectStorage, id: string, headers: { range?: string; 'if-range'?: string }) {
  const att = await visibleAttachment(w.em, id, await viewerOf(w, w.actor));
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
 * `attachment.deleted` is recorded in the same transaction (the route's own); the bytes are removed
 * after the commit (a failed removal is retried by the removal worker).
 */
export async function deleteAttachment(ctx: RouteContext, storage: ObjectStorage, id: string) {
  const viewer = await viewerOf(ctx, ctx.actor);
  const object = await ctx.transaction(async (w) => {
    const att = await visibleAttachment(w.em, id, viewer, true);
    if (!canDelete(att, viewer)) {
      if (viewer.manage) throw new OutOfReach(`Your permission attachments.manage does not reach attachment ${id}.`);
      throw new Forbidden('Only the uploader or a holder of attachments.manage may delete this file.');
    }
    w.checkVersion(att.version);
    const before = attachmentDto(att);
    att.status = 'deleted';
    att.deletedAt = w.now;
    att.version += 1;
    const after = attachmentDto(att);
    w.emit({ type: 'attachment.deleted', aggregateType: 'attachment', aggregateId: id, locationId: att.locationId ?? null, object: after, previous: changedFields(before, after) });
    return after;
  });
  await ctx.transaction((w) => removeContent(w, storage, id)).catch(() => undefined);
  return object;
}

/** Removes the bytes of a deleted attachment and notes it (throws when the storage failed: nothing noted). */
export async function removeContent(w: Work, storage: ObjectStorage, id: string): Promise<boolean> {
  await storage.delete(storageKeyOf(id));
  await w.em.nativeUpdate(Attachment, { id, status: 'deleted', contentRemovedAt: null }, { contentRemovedAt: w.now });
  return true;
}

/** Deleted attachments whose bytes are still in the storage (oldest first). */
export async function pendingRemovals(w: Work, limit: number): Promise<string[]> {
  const rows = await w.em.find(Attachment, { status: 'deleted', contentRemovedAt: null }, { fields: ['id'], orderBy: { deletedAt: 'asc' }, limit });
  return rows.map((r) => r.id);
}

/** A page of the attachments `attachments.read` reaches (a file of no location needs reach Everyone). */
export async function listAttachments(w: Work, query: z.output<typeof AttachmentListQuery>) {
  const { limit, cursor, employeeId, locationId, uploadedBy, contentType, createdSince } = query;
  const reach = await resolvedReach(w, w.actor, 'attachments.read');
  if (!reach) throw new Forbidden('You lack the permission attachments.read.');
  const scope = employeeRecordScope(reach, locationId);
  const page = await findPage(
    w.em,
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
export async function listMyAttachments(w: Work, query: z.output<typeof MyAttachmentListQuery>) {
  const me = w.actor;
  const mine = me.employeeId ? { $or: [{ uploadedById: me.id }, { employeeId: me.employeeId }] } : { uploadedById: me.id };
  const page = await findPage(w.em, Attachment, [{ status: 'active' }, mine], query);
  return mapPage(page, attachmentDto);
}
