import { z } from '../zod';
import { PrincipalShape } from '../common';
import { Attachment } from './attachments';

/**
 * `POST /internal/attachments:resolve` (files): the attachments named, for another service that links
 * one to a record of its own (people's employee documents and certifications). With `viewer` (the
 * principal of the request being served), each row says whether that caller may see the file by the
 * Attachments rules; ids unknown or deleted are simply absent.
 */
export const AttachmentsResolveRequest = z.strictObject({
  ids: z.array(z.string().min(1).max(64)).max(200),
  viewer: PrincipalShape.optional(),
});
export type AttachmentsResolveRequest = z.output<typeof AttachmentsResolveRequest>;

export const AttachmentsResolveAnswer = z.object({ data: z.array(Attachment.extend({ visibleToViewer: z.boolean() })) });
export type AttachmentsResolveAnswer = z.output<typeof AttachmentsResolveAnswer>;

/**
 * `POST /internal/attachments/{id}:concern` (files): sets the employee a file concerns (they may then
 * read and download it), or clears it (null). People calls it when an employee document or
 * certification is shared with the employee or stops being shared.
 */
export const AttachmentConcernRequest = z.strictObject({ employeeId: z.string().min(1).max(64).nullable() });
export type AttachmentConcernRequest = z.output<typeof AttachmentConcernRequest>;

/** The kinds of file another service may store for a person (`POST /internal/attachments`): its generated exports. */
export const GeneratedFileType = z.enum(['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']);

/**
 * `POST /internal/attachments` (files): stores a file another service generated (insights' report
 * exports) as an attachment uploaded by `uploadedBy`, the person or integration who asked for it: they
 * may then read and download it as if they had uploaded it. The bytes travel base64-encoded, within
 * the upload limit (STORAGE_MAX_UPLOAD_MB).
 */
export const GeneratedAttachmentCreate = z.strictObject({
  fileName: z.string().min(1).max(200),
  contentType: GeneratedFileType,
  contentBase64: z.string().min(1),
  description: z.string().trim().min(1).max(1000).optional(),
  locationId: z.string().min(1).max(64).nullable().default(null),
  uploadedBy: z.strictObject({ type: z.enum(['user', 'integration']), id: z.string().min(1).max(64) }),
});
export type GeneratedAttachmentCreate = z.output<typeof GeneratedAttachmentCreate>;
