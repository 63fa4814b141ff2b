import type { AttachmentsResolveAnswer } from '@bop/contracts';
import type { Principal } from './auth';
import { callCommand, type ServiceClient } from './service-client';

/** One attachment as the files service resolves it for a viewer. */
export type ResolvedAttachment = AttachmentsResolveAnswer['data'][number];

/** ids per call (the files service's `attachments:resolve` takes at most 200) */
const PER_CALL = 200;

/**
 * The attachments a record names, as the files service answers them for `viewer` (its
 * `POST /internal/attachments:resolve`): by id, each with `visibleToViewer`; an id files does not know
 * is absent. Null when files cannot be asked from this process (a service run alone): the caller
 * then accepts the ids as sent. Files unreachable: 503 (the kit's callCommand).
 */
export async function resolveAttachments(services: ServiceClient, ids: string[], viewer: Principal, requestId?: string): Promise<Map<string, ResolvedAttachment> | null> {
  if (!services.has('files')) return null;
  const distinct = [...new Set(ids)];
  const found = new Map<string, ResolvedAttachment>();
  for (let i = 0; i < distinct.length; i += PER_CALL) {
    const answer = await callCommand<AttachmentsResolveAnswer>(services, 'files', 'POST', '/internal/attachments:resolve', { ids: distinct.slice(i, i + PER_CALL), viewer }, { what: 'check the attachments', ok: [200], requestId });
    for (const a of answer.data) found.set(a.id, a);
  }
  return found;
}
