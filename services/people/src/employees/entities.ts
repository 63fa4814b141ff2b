import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export interface ScheduledTransfer {
  effectiveDate: string;
  homeLocationId: string;
  departmentId: string | null;
  locationIds: string[];
}

export interface EmploymentPeriod {
  hireDate: string;
  terminationDate: string;
  terminationReason: string | null;
}

export interface Contact {
  name: string;
  relationship: string;
  phone: string;
  email?: string | null;
}

export const Employee = defineEntity({
  name: 'Employee',
  tableName: 'employees',
  properties: {
    id: p.string().primary(),
    employeeNumber: p.string().nullable(),
    externalId: p.string().nullable(),
    legalFirstName: p.string(),
    legalLastName: p.string(),
    preferredName: p.string().nullable(),
    email: p.string().nullable(),
    phone: p.string().nullable(),
    address: p.json<Record<string, unknown>>().nullable(),
    birthDate: p.string().columnType('date').nullable(),
    homeLocationId: p.string(),
    locationIds: p.array().$type<string[]>(),
    departmentId: p.string().nullable(),
    positions: p.array().$type<string[]>(),
    hireDate: p.string().columnType('date'),
    status: p.string().$type<'active' | 'terminated' | 'archived'>(),
    terminationDate: p.string().columnType('date').nullable(),
    terminationReason: p.string().nullable(),
    scheduledTransfer: p.json<ScheduledTransfer>().nullable(),
    employmentHistory: p.json<EmploymentPeriod[]>(),
    emergencyContacts: p.json<Contact[]>(),
    userId: p.string().nullable(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    archivedAt: p.datetime().nullable(),
    anonymisedAt: p.datetime().nullable(),
  },
});
export type Employee = InferEntity<typeof Employee>;
