import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const Certification = defineEntity({
  name: 'Certification',
  tableName: 'certifications',
  properties: {
    id: p.string().primary(),
    employeeId: p.string(),
    name: p.string(),
    issuer: p.string().nullable(),
    issuedOn: p.string().columnType('date'),
    expiresOn: p.string().columnType('date').nullable(),
    attachmentId: p.string().nullable(),
    status: p.string().$type<'active' | 'archived'>(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Certification = InferEntity<typeof Certification>;
