import type { AttachmentsResolveAnswer } from '@bop/contracts';
import { callCommand, type FieldError, type Principal, type ServiceClient } from '@bop/shared';

/** An attachment a record names: the body field naming it, and whether it must be an image (a photo or signature). */
export interface AttachmentRef {
  id: string;
  path: string;
  image: boolean;
}

/** ids per call (the files service's resolve takes at most 200) */
const PER_CALL = 200;

/**
 * Field errors for attachments a submission or a closing names, checked by the files service as the
 * caller would see them: unknown, deleted or not visible to the caller (one answer for all: nothing
 * leaks), or not an image where a photo or signature is asked for. No errors when files cannot be
 * asked here (operations run alone).
 */
export async function attachmentErrors(services: ServiceClient, refs: AttachmentRef[], caller: Principal, requestId?: string): Promise<FieldError[]> {
  if (refs.length === 0 || !services.has('files')) return [];
  const ids = [...new Set(refs.map((r) => r.id))];
  const found = new Map<string, AttachmentsResolveAnswer['data'][number]>();
  for (let i = 0; i < ids.length; i += PER_CALL) {
    const answer = await callCommand<AttachmentsResolveAnswer>(services, 'files', 'POST', '/internal/attachments:resolve', { ids: ids.slice(i, i + PER_CALL), viewer: caller }, { what: 'check the attachments', ok: [200], requestId });
    for (const a of answer.data) found.set(a.id, a);
  }
  const errors: FieldError[] = [];
  for (const r of refs) {
    const a = found.get(r.id);
    if (!a || !a.visibleToViewer || a.status !== 'active') errors.push({ path: r.path, message: `No attachment ${r.id}.` });
    else if (r.image && !a.contentType.startsWith('image/')) errors.push({ path: r.path, message: `Attachment ${r.id} is ${a.contentType}; a photo or signature is an image.` });
  }
  return errors;
}
