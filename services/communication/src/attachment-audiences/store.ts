import { resolveAttachments, type FieldError, type Work } from '@bop/shared';

/** The internal event files consumes to let an audience read attachments (contracts: AttachmentAudienceChanged). */
export const ATTACHMENT_AUDIENCE_EVENT = 'communication.attachments.audience';

/**
 * Field errors (`attachmentIds[i]`) of attachments a record names: unknown, deleted or not visible to
 * the caller, as the files service says. None when files cannot be asked (a service run alone).
 */
export async function attachmentErrors(w: Work, attachmentIds: string[]): Promise<FieldError[]> {
  if (attachmentIds.length === 0) return [];
  const found = await resolveAttachments(w.services, attachmentIds, w.actor, w.requestId);
  const errors: FieldError[] = [];
  if (found) {
    attachmentIds.forEach((id, i) => {
      const a = found.get(id);
      if (!a || !a.visibleToViewer || a.status !== 'active') errors.push({ path: `attachmentIds[${i}]`, message: `No attachment ${id}.` });
    });
  }
  return errors;
}

/**
 * Tells files (after the commit, through the outbox) who may read attachments: the employees of an
 * audience (an announcement's, a channel's members) as of `version`, which replace those files holds
 * for it unless `employeeIds` is null (unchanged); `attachmentIds` are added to the audience's files.
 * Files applies it once per event and never lets an older version overwrite a newer one.
 */
export function shareAttachments(
  w: Work,
  share: { audienceType: 'announcement' | 'channel'; audienceId: string; version: number; employeeIds: string[] | null; attachmentIds: string[]; locationId: string | null },
): void {
  const { audienceType, audienceId, version, employeeIds, attachmentIds, locationId } = share;
  w.emit({ type: ATTACHMENT_AUDIENCE_EVENT, aggregateType: audienceType, aggregateId: audienceId, locationId, object: { audienceId, version, employeeIds, attachmentIds } });
}
