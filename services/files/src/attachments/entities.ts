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
