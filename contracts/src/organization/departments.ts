import { z } from '../zod';
import { IdParam, ListQuery, listEnvelope, Timestamp } from '../common';

export const Department = z
  .object({
    id: z.string().openapi({ example: 'dep_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    name: z.string(),
    code: z.string().nullable(),
    locationId: z.string().nullable().openapi({ description: 'null = company-wide' }),
    status: z.enum(['active', 'archived']),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Department');

export const DepartmentCreate = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    code: z.string().trim().min(1).max(40).nullable().optional(),
    locationId: z.string().min(1).nullable().optional(),
  })
  .openapi('DepartmentCreate');

export const DepartmentPatch = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional(),
    code: z.string().trim().min(1).max(40).nullable().optional(),
  })
  .openapi('DepartmentPatch');

export const DepartmentListQuery = ListQuery.extend({
  locationId: z.string().min(1).optional(),
  status: z.enum(['active', 'archived']).optional(),
  updatedSince: Timestamp.optional(),
});

export const departmentOperations = {
  'GET /departments': { query: DepartmentListQuery, response: listEnvelope(Department) },
  'POST /departments': { body: DepartmentCreate, response: Department, status: 201 },
  'PATCH /departments/{id}': { params: IdParam, body: DepartmentPatch, response: Department },
  'DELETE /departments/{id}': { params: IdParam, response: Department },
};
