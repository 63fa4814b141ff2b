import { LockMode } from '@mikro-orm/core';
import type { EntityManager, Work } from '@bop/shared';
import { AttachmentAudience, AttachmentAudienceFile, AttachmentAudienceMember } from './entities';

/** What communication says an audience may read (its internal event `communication.attachments.audience`). */
export interface AudienceChange {
  audienceId: string;
  version: number;
  /** the whole audience as of `version`; null: unchanged */
  employeeIds: string[] | null;
  /** added to what the audience may read */
  attachmentIds: string[];
}

/**
 * Applies an audience change: the attachments are added; the employees replace those held unless an
 * equal or newer version is held already (events may arrive late; each is applied once by the kit).
 */
export async function applyAudienceChange(w: Work, change: AudienceChange): Promise<void> {
  const { audienceId, version, employeeIds, attachmentIds } = change;
  // the audience row first (absent: version 0, so that any version of its members applies), then locked
  await w.em.createQueryBuilder(AttachmentAudience).insert({ id: audienceId, version: 0, updatedAt: w.now }).onConflict('id').ignore().execute();
  const audience = await w.em.findOneOrFail(AttachmentAudience, { id: audienceId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (employeeIds !== null && version > audience.version) {
    await w.em.nativeDelete(AttachmentAudienceMember, { audienceId });
    const distinct = [...new Set(employeeIds)];
    if (distinct.length > 0) await w.em.insertMany(AttachmentAudienceMember, distinct.map((employeeId) => ({ audienceId, employeeId })));
    audience.version = version;
    audience.updatedAt = w.now;
  }
  if (attachmentIds.length > 0) {
    await w.em.createQueryBuilder(AttachmentAudienceFile).insert([...new Set(attachmentIds)].map((attachmentId) => ({ audienceId, attachmentId }))).onConflict(['audienceId', 'attachmentId']).ignore().execute();
  }
  await w.em.flush();
}

/** The attachments among `attachmentIds` that an employee may read as one of an audience. */
export async function sharedWith(em: EntityManager, attachmentIds: string[], employeeId: string | null): Promise<Set<string>> {
  if (!employeeId || attachmentIds.length === 0) return new Set();
  const files = await em.find(AttachmentAudienceFile, { attachmentId: { $in: attachmentIds } });
  if (files.length === 0) return new Set();
  const mine = new Set((await em.find(AttachmentAudienceMember, { employeeId, audienceId: { $in: [...new Set(files.map((f) => f.audienceId))] } }, { fields: ['audienceId'] })).map((m) => m.audienceId));
  return new Set(files.filter((f) => mine.has(f.audienceId)).map((f) => f.attachmentId));
}

