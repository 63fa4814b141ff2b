import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import type { CertificationCreate, CertificationListQuery, CertificationPatch } from '@bop/contracts';
import { Conflict, NotFound, ValidationError, changedFields, findPage, mapPage, newId, type RouteContext, type Work } from '@bop/shared';
import { assertEmployeeInReach, employeeForRecord, reachableEmployeeIds } from '../employees/store';
import { Employee } from '../employees/entities';
import { recordActivity } from '../activity/store';
import type { FilesLink } from '../documents/files-client';
import { Certification } from './entities';
import { certificationDto } from './dto';

type CertificationView = ReturnType<typeof certificationDto>;

/** A certification's public change event (the project's own types): data.object the certification as the API returns it, at the employee's home location. */
function recordCertificationEvent(w: Work, type: 'certification.created' | 'certification.updated' | 'certification.archived', object: CertificationView, locationId: string, previous?: Record<string, unknown>): void {
  w.emit({ type, aggregateType: 'certification', aggregateId: object.id, locationId, object, ...(previous ? { previous } : {}) });
}

function checkDates(issuedOn: string, expiresOn: string | null | undefined): void {
  if (expiresOn && expiresOn < issuedOn) throw new ValidationError([{ path: 'expiresOn', message: `The certification cannot expire before it was issued (${issuedOn}).` }]);
}

/**
 * Records a certification; its file (optional) becomes the employee's to read too. The route holds no
 * transaction while files is asked: the certification is written in a transaction of its own once the
 * file is shared (`ctx.transaction`), and a failed commit takes the sharing back.
 */
export async function addCertification(ctx: Work & Pick<RouteContext, 'transaction'>, body: z.output<typeof CertificationCreate>, files: FilesLink) {
  const employee = await employeeForRecord(ctx, body.employeeId);
  if (employee.status === 'archived') throw new Conflict(`Employee ${employee.id} is archived; their file takes no new certifications.`);
  checkDates(body.issuedOn, body.expiresOn);
  const attachmentId = body.attachmentId ?? null;
  if (attachmentId) {
    await files.check(attachmentId, employee.id, ctx.actor, 'attachmentId');
    await files.concern(attachmentId, employee.id);
  }
  // shared before the certification commits: a failed commit takes the sharing back
  const unshare = (err: unknown) => (attachmentId ? files.concern(attachmentId, null).then(() => Promise.reject(err), () => Promise.reject(err)) : Promise.reject(err));
  return ctx.transaction(async (w) => {
    const at = w.now;
    const cert = w.em.create(Certification, {
      id: newId('certification'),
      employeeId: employee.id,
      name: body.name,
      issuer: body.issuer ?? null,
      issuedOn: body.issuedOn,
      expiresOn: body.expiresOn ?? null,
      attachmentId: body.attachmentId ?? null,
      status: 'active',
      version: 1,
      createdAt: at,
      updatedAt: at,
    });
    const object = certificationDto(cert);
    recordActivity(w, employee.id, 'certification_added', null, { certification: object });
    recordCertificationEvent(w, 'certification.created', object, employee.homeLocationId);
    return object;
  }).catch(unshare);
}

async function certificationForChange(w: Work, id: string) {
  const cert = await w.em.findOne(Certification, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!cert) throw new NotFound('certification', id);
  const employee = await w.em.findOneOrFail(Employee, { id: cert.employeeId });
  assertEmployeeInReach(w.reach(), employee);
  w.checkVersion(cert.version);
  return { cert, employee };
}

/** A renewal (new dates), a correction or another file; the file replaced stops concerning the employee. */
export async function patchCertification(w: Work, id: string, body: z.output<typeof CertificationPatch>, files: FilesLink) {
  const { cert, employee } = await certificationForChange(w, id);
  if (cert.status === 'archived') throw new Conflict(`Certification ${id} is archived.`);
  const before = certificationDto(cert);
  checkDates(body.issuedOn ?? cert.issuedOn, body.expiresOn !== undefined ? body.expiresOn : cert.expiresOn);
  if (body.attachmentId !== undefined && body.attachmentId !== (cert.attachmentId ?? null)) {
    if (body.attachmentId) {
      await files.check(body.attachmentId, cert.employeeId, w.actor, 'attachmentId');
      await files.concern(body.attachmentId, cert.employeeId);
    }
    if (cert.attachmentId) await files.concern(cert.attachmentId, null);
    cert.attachmentId = body.attachmentId;
  }
  if (body.name !== undefined) cert.name = body.name;
  if (body.issuer !== undefined) cert.issuer = body.issuer;
  if (body.issuedOn !== undefined) cert.issuedOn = body.issuedOn;
  if (body.expiresOn !== undefined) cert.expiresOn = body.expiresOn;
  if (JSON.stringify(before) === JSON.stringify(certificationDto(cert))) return before;
  cert.version += 1;
  cert.updatedAt = w.now;
  const after = certificationDto(cert);
  recordActivity(w, cert.employeeId, 'certification_updated', { certification: before }, { certification: after });
  recordCertificationEvent(w, 'certification.updated', after, employee.homeLocationId, changedFields(before, after));
  return after;
}

export async function archiveCertification(w: Work, id: string) {
  const { cert, employee } = await certificationForChange(w, id);
  if (cert.status === 'archived') return certificationDto(cert);
  const before = certificationDto(cert);
  cert.status = 'archived';
  cert.version += 1;
  cert.updatedAt = w.now;
  const after = certificationDto(cert);
  recordActivity(w, cert.employeeId, 'certification_archived', { certification: before }, { certification: after });
  recordCertificationEvent(w, 'certification.archived', after, employee.homeLocationId, changedFields(before, after));
  return after;
}

export async function listCertifications(w: Work, query: z.output<typeof CertificationListQuery>) {
  const { limit, cursor, updatedSince, employeeId, name, expiresBefore, status } = query;
  const reachable = await reachableEmployeeIds(w);
  const page = await findPage(
    w.em,
    Certification,
    [
      { status: status ?? 'active' },
      employeeId && { employeeId },
      name && { name: { $ilike: name.replace(/[\\%_]/g, (c) => `\\${c}`) } },
      expiresBefore && { expiresOn: { $lt: expiresBefore } },
      reachable && { employeeId: { $in: reachable } },
    ],
    { limit, cursor, updatedSince },
  );
  return mapPage(page, certificationDto);
}
