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
