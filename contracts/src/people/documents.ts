import { z } from '../zod';
import { IdParam, ListQuery, listEnvelope, Timestamp } from '../common';
import { IsoDate } from '../identity/company-settings';

const docType = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'Use a short label such as contract, payslip, id, tax or other (letters, digits, - and _).')
  .openapi({ example: 'payslip' });

export const EmployeeDocument = z
  .object({
    id: z.string().openapi({ example: 'edc_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    employeeId: z.string(),
    attachmentId: z.string(),
    type: z.string().openapi({ description: '`payslip` documents shared with the employee are listed in `/me/payslips`' }),
    title: z.string(),
    expiresOn: IsoDate.nullable(),
    visibleToEmployee: z.boolean().openapi({ description: 'the employee sees it in `/me/documents` and may download its file' }),
    status: z.enum(['active', 'archived']),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('EmployeeDocument');

export const EmployeeDocumentCreate = z
  .strictObject({
    employeeId: z.string().min(1).max(64),
    attachmentId: z.string().min(1).max(64),
    type: docType,
    title: z.string().trim().min(1).max(200).optional(),
    expiresOn: IsoDate.nullable().optional(),
    visibleToEmployee: z.boolean().optional(),
  })
  .openapi('EmployeeDocumentCreate');

export const EmployeeDocumentPatch = z
  .strictObject({
    type: docType.optional(),
    title: z.string().trim().min(1).max(200).optional(),
    expiresOn: IsoDate.nullable().optional(),
    visibleToEmployee: z.boolean().optional(),
  })
  .openapi('EmployeeDocumentPatch');

export const EmployeeDocumentListQuery = ListQuery.extend({
  employeeId: z.string().min(1).max(64).optional(),
  type: z.string().min(1).max(40).optional(),
  expiresBefore: IsoDate.optional().openapi({ description: 'documents expiring before this date (those without an expiry are left out)' }),
  status: z.enum(['active', 'archived']).optional(),
  updatedSince: Timestamp.optional(),
});

export const Certification = z
  .object({
    id: z.string().openapi({ example: 'crt_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    employeeId: z.string(),
    name: z.string().openapi({ example: 'Food handler' }),
    issuer: z.string().nullable(),
    issuedOn: IsoDate,
    expiresOn: IsoDate.nullable(),
    attachmentId: z.string().nullable(),
    status: z.enum(['active', 'archived']),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('Certification');

export const CertificationCreate = z
  .strictObject({
    employeeId: z.string().min(1).max(64),
    name: z.string().trim().min(1).max(120),
    issuer: z.string().trim().min(1).max(200).nullable().optional(),
    issuedOn: IsoDate,
    expiresOn: IsoDate.nullable().optional(),
    attachmentId: z.string().min(1).max(64).nullable().optional(),
  })
  .openapi('CertificationCreate');

export const CertificationPatch = z
  .strictObject({
    name: z.string().trim().min(1).max(120).optional(),
    issuer: z.string().trim().min(1).max(200).nullable().optional(),
    issuedOn: IsoDate.optional(),
    expiresOn: IsoDate.nullable().optional(),
    attachmentId: z.string().min(1).max(64).nullable().optional(),
  })
  .openapi('CertificationPatch');

export const CertificationListQuery = ListQuery.extend({
  employeeId: z.string().min(1).max(64).optional(),
  name: z.string().min(1).max(120).optional(),
  expiresBefore: IsoDate.optional().openapi({ description: 'certifications expiring before this date (those without an expiry are left out)' }),
  status: z.enum(['active', 'archived']).optional(),
  updatedSince: Timestamp.optional(),
});

export const documentOperations = {
  'GET /employee-documents': { query: EmployeeDocumentListQuery, response: listEnvelope(EmployeeDocument) },
  'POST /employee-documents': { body: EmployeeDocumentCreate, response: EmployeeDocument, status: 201 },
  'PATCH /employee-documents/{id}': { params: IdParam, body: EmployeeDocumentPatch, response: EmployeeDocument },
  'DELETE /employee-documents/{id}': { params: IdParam, response: EmployeeDocument },
  'GET /certifications': { query: CertificationListQuery, response: listEnvelope(Certification) },
  'POST /certifications': { body: CertificationCreate, response: Certification, status: 201 },
  'PATCH /certifications/{id}': { params: IdParam, body: CertificationPatch, response: Certification },
  'DELETE /certifications/{id}': { params: IdParam, response: Certification },
  'GET /me/documents': { query: ListQuery, response: listEnvelope(EmployeeDocument) },
  'GET /me/payslips': { query: ListQuery, response: listEnvelope(EmployeeDocument) },
};
