import { z } from '../zod';
import { IdParam, ListQuery, listEnvelope, Timestamp } from '../common';

export const Attachment = z
  .object({
    id: z.string().openapi({ example: 'att_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    fileName: z.string().openapi({ example: 'food-handler-card.pdf' }),
    contentType: z.string().openapi({ description: 'the type the bytes were identified as (not only the declared one)', example: 'application/pdf' }),
    size: z.number().int().openapi({ description: 'bytes' }),
    sha256: z.string().openapi({ description: 'hex SHA-256 of the content' }),
    description: z.string().nullable(),
    employeeId: z.string().nullable().openapi({ description: 'the employee the file concerns: they may read and download it' }),
    locationId: z.string().nullable().openapi({ description: 'the location the file belongs to: reach of `attachments.read` and `attachments.manage` follows it' }),
    uploadedBy: z.object({ type: z.enum(['user', 'integration']), id: z.string() }),
    status: z.enum(['active', 'deleted']),
    contentUrl: z.string().openapi({ example: '/api/v1/attachments/att_01JD3Y7Q0ZK8M4N2P5R6S7T8V9/content' }),
    version: z.number().int(),
    createdAt: Timestamp,
    deletedAt: Timestamp.nullable(),
  })
  .openapi('Attachment');

/**
 * The text fields of `POST /attachments` (multipart/form-data) besides the one `file` part; sent as
 * form fields, checked as this schema after the stream is read.
 */
export const AttachmentUploadForm = z
  .strictObject({
    description: z.string().trim().min(1).max(1000).optional(),
    employeeId: z.string().min(1).max(64).optional(),
    locationId: z.string().min(1).max(64).optional(),
  })
  .openapi('AttachmentUploadForm');

export const AttachmentListQuery = ListQuery.extend({
  employeeId: z.string().min(1).max(64).optional(),
  locationId: z.string().min(1).max(64).optional(),
  uploadedBy: z.string().min(1).max(64).optional().openapi({ description: 'a user or integration id' }),
  contentType: z.string().min(1).max(255).optional(),
  createdSince: Timestamp.optional(),
});

export const MyAttachmentListQuery = ListQuery;

export const attachmentOperations = {
  'GET /attachments': { query: AttachmentListQuery, response: listEnvelope(Attachment) },
  'POST /attachments': { form: AttachmentUploadForm, formFile: 'file', response: Attachment, status: 201 },
  'GET /attachments/{id}': { params: IdParam, response: Attachment },
  'DELETE /attachments/{id}': { params: IdParam, response: Attachment },
  'GET /attachments/{id}/content': { params: IdParam, binaryResponse: true, alsoStatuses: [206] },
  'GET /me/attachments': { query: MyAttachmentListQuery, response: listEnvelope(Attachment) },
};
