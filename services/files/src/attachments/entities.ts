import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const Attachment = defineEntity({
  name: 'Attachment',
  tableName: 'attachments',
  properties: {
    id: p.string().primary(),
    fileName: p.string(),
    contentType: p.string(),
    size: p.bigint('number'),
    sha256: p.string(),
    storageKey: p.string(),
    description: p.string().nullable(),
    employeeId: p.string().nullable(),
    locationId: p.string().nullable(),
    uploadedByType: p.string(),
    uploadedById: p.string(),
    status: p.string(),
    version: p.integer(),
    createdAt: p.datetime(),
    deletedAt: p.datetime().nullable(),
    contentRemovedAt: p.datetime().nullable(),
  },
});
export type Attachment = InferEntity<typeof Attachment>;

/** An upload under way: written before its bytes are stored, deleted with the attachment's record (or when refused). */
export const UploadIntent = defineEntity({
  name: 'UploadIntent',
  tableName: 'upload_intents',
  properties: {
    id: p.string().primary(),
    storageKey: p.string(),
    startedAt: p.datetime(),
  },
});
export type UploadIntent = InferEntity<typeof UploadIntent>;

/** An audience another service lets read attachments (an announcement's, a channel's members), as of `version`. */
export const AttachmentAudience = defineEntity({
  name: 'AttachmentAudience',
  tableName: 'attachment_audiences',
  properties: {
    id: p.string().primary(),
    version: p.integer(),
    updatedAt: p.datetime(),
  },
});
export type AttachmentAudience = InferEntity<typeof AttachmentAudience>;

/** An employee of an audience. */
export const AttachmentAudienceMember = defineEntity({
  name: 'AttachmentAudienceMember',
  tableName: 'attachment_audience_members',
  properties: {
    audienceId: p.string().primary(),
    employeeId: p.string().primary(),
  },
});
export type AttachmentAudienceMember = InferEntity<typeof AttachmentAudienceMember>;

/** An attachment an audience may read. */
export const AttachmentAudienceFile = defineEntity({
  name: 'AttachmentAudienceFile',
  tableName: 'attachment_audience_files',
  properties: {
    audienceId: p.string().primary(),
    attachmentId: p.string().primary(),
  },
});
export type AttachmentAudienceFile = InferEntity<typeof AttachmentAudienceFile>;
