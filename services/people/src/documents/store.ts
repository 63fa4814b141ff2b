import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import type { EmployeeDocumentCreate, EmployeeDocumentListQuery, EmployeeDocumentPatch, ListQuery } from '@bop/contracts';
import { Conflict, NotFound, changedFields, findPage, mapPage, newId, ownEmployeeId, type RouteContext, type Work } from '@bop/shared';
import { assertEmployeeInReach, employeeForRecord, reachableEmployeeIds } from '../employees/store';
import { Employee } from '../employees/entities';
import { recordActivity } from '../activity/store';
import { EmployeeDocument } from './entities';
import { documentDto } from './dto';
import type { FilesLink } from './files-client';

type DocumentView = ReturnType<typeof documentDto>;

/** A document's public change event (the project's own types): data.object the document as the API returns it, at the employee's home location. */
function recordDocumentEvent(w: Work, type: 'document.created' | 'document.updated' | 'document.archived', object: DocumentView, locationId: string, previous?: Record<string, unknown>): void {
  w.emit({ type, aggregateType: 'employee_document', aggregateId: object.id, locationId, object, ...(previous ? { previous } : {}) });
}

/**
 * Adds a document to an employee's file: an attachment the caller may see (files decides) that
 * concerns no other employee. Shared with the employee, the file becomes theirs to read too. The
 * route holds no transaction while files is asked: the document is written in a transaction of its own
 * once the file is shared (`ctx.transaction`), and a failed commit takes the sharing back.
 */
export async function addDocument(ctx: Work & Pick<RouteContext, 'transaction'>, body: z.output<typeof EmployeeDocumentCreate>, files: FilesLink) {
  const employee = await employeeForRecord(ctx, body.employeeId);
  if (employee.status === 'archived') throw new Conflict(`Employee ${employee.id} is archived; their file takes no new documents.`);
  const att = await files.check(body.attachmentId, employee.id, ctx.actor, 'attachmentId');
  const visible = body.visibleToEmployee ?? false;
  if (visible) await files.concern(body.attachmentId, employee.id);
  // shared before the document commits: a failed commit takes the sharing back
  const unshare = (err: unknown) => (visible ? files.concern(body.attachmentId, null).then(() => Promise.reject(err), () => Promise.reject(err)) : Promise.reject(err));
  return ctx.transaction(async (w) => {
    const at = w.now;
    const doc = w.em.create(EmployeeDocument, {
      id: newId('employeeDocument'),
      employeeId: employee.id,
      attachmentId: body.attachmentId,
      type: body.type,
      title: body.title ?? att?.fileName ?? body.type,
      expiresOn: body.expiresOn ?? null,
      visibleToEmployee: visible,
      status: 'active',
      version: 1,
      createdAt: at,
      updatedAt: at,
    });
    const object = documentDto(doc);
    recordActivity(w, employee.id, 'document_added', null, { document: object });
    recordDocumentEvent(w, 'document.created', object, employee.homeLocationId);
    return object;
  }).catch(unshare);
}

/** A document locked for a change the caller may make (through its employee's reach). */
async function documentForChange(w: Work, id: string) {
  const doc = await w.em.findOne(EmployeeDocument, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!doc) throw new NotFound('employee document', id);
  const employee = await w.em.findOneOrFail(Employee, { id: doc.employeeId });
  assertEmployeeInReach(w.reach(), employee);
  w.checkVersion(doc.version);
  return { doc, employee };
}

export async function patchDocument(w: Work, id: string, body: z.output<typeof EmployeeDocumentPatch>, files: FilesLink) {
  const { doc, employee } = await documentForChange(w, id);
  if (doc.status === 'archived') throw new Conflict(`Document ${id} is archived.`);
  const before = documentDto(doc);
  if (body.type !== undefined) doc.type = body.type;
  if (body.title !== undefined) doc.title = body.title;
  if (body.expiresOn !== undefined) doc.expiresOn = body.expiresOn;
  if (body.visibleToEmployee !== undefined && body.visibleToEmployee !== doc.visibleToEmployee) {
    await files.concern(doc.attachmentId, body.visibleToEmployee ? doc.employeeId : null);
    doc.visibleToEmployee = body.visibleToEmployee;
  }
  if (JSON.stringify(before) === JSON.stringify(documentDto(doc))) return before;
  doc.version += 1;
  doc.updatedAt = w.now;
  const after = documentDto(doc);
  recordActivity(w, doc.employeeId, 'document_updated', { document: before }, { document: after });
  recordDocumentEvent(w, 'document.updated', after, employee.homeLocationId, changedFields(before, after));
  return after;
}

/** Archives a document: kept for the record, no longer shown to the employee (nor its file). */
export async function archiveDocument(w: Work, id: string, files: FilesLink) {
  const { doc, employee } = await documentForChange(w, id);
  if (doc.status === 'archived') return documentDto(doc);
  const before = documentDto(doc);
  if (doc.visibleToEmployee) await files.concern(doc.attachmentId, null);
  doc.status = 'archived';
  doc.version += 1;
  doc.updatedAt = w.now;
  const after = documentDto(doc);
  recordActivity(w, doc.employeeId, 'document_archived', { document: before }, { document: after });
  recordDocumentEvent(w, 'document.archived', after, employee.homeLocationId, changedFields(before, after));
  return after;
}

export async function listDocuments(w: Work, query: z.output<typeof EmployeeDocumentListQuery>) {
  const { limit, cursor, updatedSince, employeeId, type, expiresBefore, status } = query;
  const reachable = await reachableEmployeeIds(w);
  const page = await findPage(
    w.em,
    EmployeeDocument,
    [
      { status: status ?? 'active' },
      employeeId && { employeeId },
      type && { type: type.toLowerCase() },
      expiresBefore && { expiresOn: { $lt: expiresBefore } },
      reachable && { employeeId: { $in: reachable } },
    ],
    { limit, cursor, updatedSince },
  );
  return mapPage(page, documentDto);
}

/** `/me/documents` and `/me/payslips`: the caller's own documents shared with them. */
export async function listOwnDocuments(w: Work, query: z.output<typeof ListQuery>, type?: string) {
  const page = await findPage(w.em, EmployeeDocument, [{ employeeId: ownEmployeeId(w.actor), visibleToEmployee: true, status: 'active' }, type && { type }], query);
  return mapPage(page, documentDto);
}
