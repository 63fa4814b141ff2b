import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const EmployeeDocument = defineEntity({
  name: 'EmployeeDocument',
  tableName: 'employee_documents',
  properties: {
    id: p.string().primary(),
    employeeId: p.string(),
    attachmentId: p.string(),
    type: p.string(),
    title: p.string(),
    expiresOn: p.string().columnType('date').nullable(),
    visibleToEmployee: p.boolean(),
    status: p.string().$type<'active' | 'archived'>(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type EmployeeDocument = InferEntity<typeof EmployeeDocument>;
