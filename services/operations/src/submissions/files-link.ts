import { resolveAttachments, type FieldError, type Principal, type ServiceClient } from '@bop/shared';

/** An attachment a record names: the body field naming it, and whether it must be an image (a photo or signature). */
export interface AttachmentRef {
  id: string;
  path: string;
  image: boolean;
}

/**
 * Field errors for attachments a submission or a closing names, checked by the files service as the
 * caller would see them: unknown, deleted or not visible to the caller (one answer for all: nothing
 * leaks), or not an image where a photo or signature is asked for. No errors when files cannot be
 * asked here (operations run alone).
 */
export async function attachmentErrors(services: ServiceClient, refs: AttachmentRef[], caller: Principal, requestId?: string): Promise<FieldError[]> {
  if (refs.length === 0) return [];
  const found = await resolveAttachments(services, refs.map((r) => r.id), caller, requestId);
  if (!found) return [];
  const errors: FieldError[] = [];
  for (const r of refs) {
    const a = found.get(r.id);
    if (!a || !a.visibleToViewer || a.status !== 'active') errors.push({ path: r.path, message: `No attachment ${r.id}.` });
    else if (r.image && !a.contentType.startsWith('image/')) errors.push({ path: r.path, message: `Attachment ${r.id} is ${a.contentType}; a photo or signature is an image.` });
  }
  return errors;
}
