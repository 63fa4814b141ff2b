import { z } from '../zod';
import { IdParam, ListQuery, listEnvelope, Timestamp } from '../common';

export const OrgUnit = z
  .object({
    id: z.string().openapi({ example: 'ou_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    name: z.string(),
    kind: z.string().nullable().openapi({ description: 'free label such as region or area' }),
    parentId: z.string().nullable(),
    /** ancestors from the root down to the parent */
    path: z.array(z.string()),
    depth: z.number().int(),
    status: z.enum(['active', 'archived']),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('OrgUnit');

export const OrgUnitCreate = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    kind: z.string().trim().min(1).max(60).nullable().optional(),
    parentId: z.string().min(1).nullable().optional(),
  })
  .openapi('OrgUnitCreate');

export const OrgUnitPatch = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional(),
    kind: z.string().trim().min(1).max(60).nullable().optional(),
    parentId: z.string().min(1).nullable().optional(),
  })
  .openapi('OrgUnitPatch');

export const OrgUnitListQuery = ListQuery.extend({
  parentId: z.string().min(1).optional().openapi({ description: 'direct children of this unit; `root` for top-level units' }),
  status: z.enum(['active', 'archived']).optional(),
  updatedSince: Timestamp.optional(),
});

export const orgUnitOperations = {
  'GET /org-units': { query: OrgUnitListQuery, response: listEnvelope(OrgUnit) },
  'POST /org-units': { body: OrgUnitCreate, response: OrgUnit, status: 201 },
  'PATCH /org-units/{id}': { params: IdParam, body: OrgUnitPatch, response: OrgUnit },
  'DELETE /org-units/{id}': { params: IdParam, response: OrgUnit },
};
