import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { AccrualPolicy } from './accrual';

type Actor = { type: string; id: string | null };

/** The accrual terms of a policy (what a balance is replayed with). */
export type PolicyTerms = Required<AccrualPolicy>;
export interface PolicyEligibility {
  locationIds: string[];
  departmentIds: string[];
  positions: string[];
}
/** Earlier terms of a policy, kept when they changed: they apply from `effectiveFrom` (null: the start) to `effectiveTo`. */
export interface PolicyVersion {
  effectiveFrom: string | null;
  effectiveTo: string;
  terms: PolicyTerms;
}

/** A kind of time off (vacation, sick …), paid or unpaid; company-wide. */
export const TimeOffType = defineEntity({
  name: 'TimeOffType',
  tableName: 'time_off_types',
  properties: {
    id: p.string().primary(),
    name: p.string(),
    paid: p.boolean(),
    allowNegativeBalance: p.boolean(),
    hoursPerDay: p.decimal('string'),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type TimeOffType = InferEntity<typeof TimeOffType>;

/** How a type accrues for the employees it covers: current terms, and the earlier ones in `history`. */
export const TimeOffPolicy = defineEntity({
  name: 'TimeOffPolicy',
  tableName: 'time_off_policies',
  properties: {
    id: p.string().primary(),
    typeId: p.string(),
    name: p.string(),
    accrual: p.json<PolicyTerms['accrual']>(),
    cap: p.decimal('string').nullable(),
    carryOver: p.decimal('string').nullable(),
    yearStart: p.string(),
    eligibility: p.json<PolicyEligibility>(),
    effectiveFrom: p.string().columnType('date').nullable(),
    history: p.json<PolicyVersion[]>(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type TimeOffPolicy = InferEntity<typeof TimeOffPolicy>;

/** A request for time off; `locationId` is the employee's home location when requested (reach and events). */
export const TimeOffRequest = defineEntity({
  name: 'TimeOffRequest',
  tableName: 'time_off_requests',
  properties: {
    id: p.string().primary(),
    employeeId: p.string(),
    typeId: p.string(),
    locationId: p.string(),
    startDate: p.string().columnType('date'),
    endDate: p.string().columnType('date'),
    partialHours: p.decimal('string').nullable(),
    hours: p.decimal('string'),
    note: p.string().nullable(),
    status: p.string().$type<'pending' | 'approved' | 'rejected' | 'cancelled'>(),
    requestedBy: p.json<Actor>(),
    decidedAt: p.datetime().nullable(),
    decidedBy: p.json<Actor>().nullable(),
    rejectionReason: p.string().nullable(),
    cancelledAt: p.datetime().nullable(),
    cancelledBy: p.json<Actor>().nullable(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type TimeOffRequest = InferEntity<typeof TimeOffRequest>;

/**
 * A row of an employee's time-off ledger for one type: an adjustment with its reason, the hours an
 * approved request took, or those a cancelled one gave back. Accruals are not stored: they are
 * replayed from timesheets and pay periods on read.
 */
export const TimeOffEntry = defineEntity({
  name: 'TimeOffEntry',
  tableName: 'time_off_entries',
  properties: {
    id: p.string().primary(),
    employeeId: p.string(),
    typeId: p.string(),
    kind: p.string().$type<'adjustment' | 'taken' | 'restored'>(),
    date: p.string().columnType('date'),
    hours: p.decimal('string'),
    reason: p.string().nullable(),
    requestId: p.string().nullable(),
    createdBy: p.json<Actor>(),
    createdAt: p.datetime(),
  },
});
export type TimeOffEntry = InferEntity<typeof TimeOffEntry>;
