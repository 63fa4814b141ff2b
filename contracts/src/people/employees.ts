import { z } from '../zod';
import { ExternalIdParam, IdParam, ListQuery, listEnvelope, Timestamp } from '../common';
import { IsoDate } from '../identity/company-settings';

const name = z.string().trim().min(1).max(100);
const label = z.string().trim().min(1).max(60);
const locationRef = z.string().min(1).max(64);

export const PostalAddress = z
  .strictObject({
    line1: z.string().trim().min(1).max(200),
    line2: z.string().trim().max(200).nullable().optional(),
    city: z.string().trim().min(1).max(100),
    region: z.string().trim().max(100).nullable().optional(),
    postalCode: z.string().trim().max(20).nullable().optional(),
    country: z.string().regex(/^[A-Z]{2}$/, 'Use an ISO 3166-1 alpha-2 code such as US.'),
  })
  .openapi('PostalAddress');

export const EmergencyContact = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    relationship: z.string().trim().min(1).max(60),
    phone: z.string().trim().min(3).max(40),
    email: z.email().max(254).nullable().optional(),
  })
  .openapi('EmergencyContact');

export const EmployeeStatus = z.enum(['active', 'terminated', 'archived']);

export const Employee = z
  .object({
    id: z.string().openapi({ example: 'emp_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    employeeNumber: z.string().nullable(),
    externalId: z.string().nullable(),
    legalFirstName: z.string(),
    legalLastName: z.string(),
    preferredName: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    address: z.union([PostalAddress, z.null()]),
    birthDate: IsoDate.nullable(),
    homeLocationId: z.string(),
    locationIds: z.array(z.string()).openapi({ description: 'further locations the employee may work at (the home location not repeated)' }),
    departmentId: z.string().nullable(),
    positions: z.array(z.string()).openapi({ description: 'positions the employee can work: labels from `positions` in the company settings' }),
    hireDate: IsoDate,
    status: EmployeeStatus,
    terminationDate: IsoDate.nullable().openapi({ description: 'the last day of employment; set while a termination is scheduled (status still `active`) and after it' }),
    terminationReason: z.string().nullable(),
    scheduledTransfer: z
      .object({ effectiveDate: IsoDate, homeLocationId: z.string(), departmentId: z.string().nullable(), locationIds: z.array(z.string()) })
      .nullable()
      .openapi({ description: 'a transfer recorded for a later day; it takes effect on that day in the new home location\'s time zone' }),
    userId: z.string().nullable().openapi({ description: 'the user account linked to this employee (set on the user, in identity)' }),
    employmentHistory: z
      .array(z.object({ hireDate: IsoDate, terminationDate: IsoDate, terminationReason: z.string().nullable() }))
      .openapi({ description: 'earlier periods of employment, oldest first (kept on rehire)' }),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    archivedAt: Timestamp.nullable(),
    anonymisedAt: Timestamp.nullable().openapi({ description: 'when the personal fields were erased after the retention period' }),
  })
  .openapi('Employee');

const employeeFields = {
  employeeNumber: z.string().trim().min(1).max(40).nullable().optional(),
  legalFirstName: name,
  legalLastName: name,
  preferredName: name.nullable().optional(),
  email: z.email().max(254).nullable().optional(),
  phone: z.string().trim().min(3).max(40).nullable().optional(),
  address: z.union([PostalAddress, z.null()]).optional(),
  birthDate: IsoDate.nullable().optional(),
  homeLocationId: locationRef,
  locationIds: z.array(locationRef).max(200).optional(),
  departmentId: z.string().min(1).max(64).nullable().optional(),
  positions: z.array(label).max(50).optional(),
  hireDate: IsoDate,
};

export const EmployeeCreate = z
  .strictObject({ ...employeeFields, externalId: z.string().trim().min(1).max(200).nullable().optional() })
  .openapi('EmployeeCreate');

/** A pay rate as an HR tool sends it with the employee (`PUT /employees/external/{externalId}`). */
export const PayRateInput = z.strictObject({
  type: z.enum(['hourly', 'salary']),
  amount: z
    .string()
    .regex(/^(0|[1-9]\d{0,11})(\.\d{1,4})?$/, 'Use a non-negative decimal string such as "18.50" (per hour) or "52000.00" (per year).')
    .openapi({ example: '18.50' }),
  position: label.nullable().optional(),
  effectiveDate: IsoDate,
});

/**
 * The employee as an HR tool holds it. Sent again with nothing new, it answers `unchanged`; a new
 * home location or department is a transfer from `effectiveDate` (default: the day it is received);
 * a termination date newly set terminates; pay rates not yet recorded are added.
 */
export const EmployeeExternalPut = z
  .strictObject({
    ...employeeFields,
    effectiveDate: IsoDate.optional().openapi({ description: 'from when a change of home location or department applies (default: today at the home location)' }),
    terminationDate: IsoDate.nullable().optional(),
    terminationReason: z.string().trim().min(1).max(500).nullable().optional(),
    payRates: z.array(PayRateInput).max(50).optional(),
  })
  .openapi('EmployeeExternalPut');

export const EmployeeExternalResult = Employee.extend({
  result: z.enum(['created', 'updated', 'unchanged']).openapi({ description: 'what the PUT did (ingestion: re-sending a record never duplicates it)' }),
}).openapi('EmployeeExternalResult');

/** Home location and department change only through `:transfer`; status through terminate and rehire. */
export const EmployeePatch = z
  .strictObject({
    employeeNumber: employeeFields.employeeNumber,
    externalId: z.string().trim().min(1).max(200).nullable().optional(),
    legalFirstName: name.optional(),
    legalLastName: name.optional(),
    preferredName: employeeFields.preferredName,
    email: employeeFields.email,
    phone: employeeFields.phone,
    address: employeeFields.address,
    birthDate: employeeFields.birthDate,
    locationIds: employeeFields.locationIds,
    positions: employeeFields.positions,
    hireDate: IsoDate.optional(),
  })
  .openapi('EmployeePatch');

export const EmployeeTransfer = z
  .strictObject({
    effectiveDate: IsoDate,
    homeLocationId: locationRef.optional(),
    departmentId: z.string().min(1).max(64).nullable().optional(),
    locationIds: z.array(locationRef).max(200).optional(),
  })
  .openapi('EmployeeTransfer');

export const EmployeeTerminate = z
  .strictObject({
    effectiveDate: IsoDate.openapi({ description: 'the last day of employment' }),
    reason: z.string().trim().min(1).max(500),
  })
  .openapi('EmployeeTerminate');

export const EmployeeRehire = z
  .strictObject({
    effectiveDate: IsoDate.openapi({ description: 'the first day of the new employment' }),
    homeLocationId: locationRef.optional(),
    departmentId: z.string().min(1).max(64).nullable().optional(),
  })
  .openapi('EmployeeRehire');

export const EmergencyContactsPut = z.strictObject({ contacts: z.array(EmergencyContact).max(10) }).openapi('EmergencyContactsPut');

export const EmployeeListQuery = ListQuery.extend({
  locationId: z.string().min(1).max(64).optional().openapi({ description: 'employees whose home or further locations include it' }),
  departmentId: z.string().min(1).max(64).optional(),
  status: EmployeeStatus.optional(),
  updatedSince: Timestamp.optional(),
});

export const PayRate = z
  .object({
    id: z.string().openapi({ example: 'prt_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    employeeId: z.string(),
    type: z.enum(['hourly', 'salary']),
    amount: z.string().openapi({ description: 'per hour (hourly) or per year (salary), in the company currency (company settings `defaultCurrency`)' }),
    position: z.string().nullable().openapi({ description: 'the position this rate pays; null: every position without a rate of its own' }),
    effectiveDate: IsoDate,
    createdAt: Timestamp,
    createdBy: z.object({ type: z.enum(['user', 'integration', 'system', 'employee']), id: z.string().nullable() }),
  })
  .openapi('PayRate');

export const PayRateCreate = PayRateInput.openapi('PayRateCreate');

export const ActivityEntry = z
  .object({
    id: z.string(),
    employeeId: z.string(),
    at: Timestamp,
    actor: z.object({ type: z.enum(['user', 'integration', 'system', 'employee']), id: z.string().nullable() }),
    action: z.string().openapi({ example: 'updated' }),
    changes: z.array(z.object({ field: z.string(), from: z.unknown(), to: z.unknown() })),
  })
  .openapi('EmployeeActivity');

export const employeeOperations = {
  'GET /employees': { query: EmployeeListQuery, response: listEnvelope(Employee) },
  'POST /employees': { body: EmployeeCreate, response: Employee, status: 201 },
  'GET /employees/external/{externalId}': { params: ExternalIdParam, response: Employee },
  'PUT /employees/external/{externalId}': { params: ExternalIdParam, body: EmployeeExternalPut, response: EmployeeExternalResult, alsoStatuses: [201] },
  'GET /employees/{id}': { params: IdParam, response: Employee },
  'PATCH /employees/{id}': { params: IdParam, body: EmployeePatch, response: Employee },
  'DELETE /employees/{id}': { params: IdParam, response: Employee },
  'POST /employees/{id}:transfer': { params: IdParam, body: EmployeeTransfer, response: Employee },
  'POST /employees/{id}:terminate': { params: IdParam, body: EmployeeTerminate, response: Employee },
  'POST /employees/{id}:rehire': { params: IdParam, body: EmployeeRehire, response: Employee },
  'GET /employees/{id}/pay-rates': { params: IdParam, query: ListQuery, response: listEnvelope(PayRate) },
  'POST /employees/{id}/pay-rates': { params: IdParam, body: PayRateCreate, response: PayRate, status: 201 },
  'GET /employees/{id}/emergency-contacts': { params: IdParam, response: z.object({ contacts: z.array(EmergencyContact) }) },
  'PUT /employees/{id}/emergency-contacts': { params: IdParam, body: EmergencyContactsPut, response: z.object({ contacts: z.array(EmergencyContact) }) },
  'GET /me/activity': { query: ListQuery, response: listEnvelope(ActivityEntry) },
};
