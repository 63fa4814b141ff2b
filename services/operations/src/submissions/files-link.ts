import { resolveAttachments, type FieldError, type Work } from '@bop/shared';

/** An attachment a record names: the body field naming it, and whether it must be an image (a photo or signature). */
export interface AttachmentRef {
  id: string;
  path: string;
  image: boolean;
}

/**
 * Field errors for attachments a submission or a closing names, checked by the files service as the
 * unit's actor would see them: unknown, deleted or not visible to the caller (one answer for all: nothing
 * leaks), or not an image where a photo or signature is asked for. No errors when files cannot be
 * asked here (operations run alone).
 */
export async function attachmentErrors(w: Work, refs: AttachmentRef[]): Promise<FieldError[]> {
  if (refs.length === 0) return [];
  const found = await resolveAttachments(w.services, refs.map((r) => r.id), w.actor, w.requestId);
  if (!found) return [];
  const errors: FieldError[] = [];
  for (const r of refs) {
    const a = found.get(r.id);
    if (!a || !a.visibleToViewer || a.status !== 'active') errors.push({ path: r.path, message: `No attachment ${r.id}.` });
    else if (r.image && !a.contentType.startsWith('image/')) errors.push({ path: r.path, message: `Attachment ${r.id} is ${a.contentType}; a photo or signature is an image.` });
  }
  return errors;
}
