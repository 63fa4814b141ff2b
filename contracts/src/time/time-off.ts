import { z } from '../zod';
import { Actor, IdParam, ListQuery, Timestamp, listEnvelope } from '../common';

/** Hours as a decimal string, at most 4 decimals (the ledger's scale). */
const HOURS = /^(0|[1-9]\d{0,3})(\.\d{1,4})?$/;
const SIGNED_HOURS = /^[+-]?(0|[1-9]\d{0,3})(\.\d{1,4})?$/;
const hoursMessage = 'Use a decimal string of hours such as "8" or "7.5" (at most 4 decimals).';

const hours = z.string().regex(HOURS, hoursMessage);
const positiveHours = hours.refine((h) => Number(h) > 0, { message: 'Must be greater than 0.' });
const dayHours = positiveHours.refine((h) => Number(h) <= 24, { message: 'At most 24 hours a day.' });
const signedHours = z
  .string()
  .regex(SIGNED_HOURS, 'Use a signed decimal string of hours such as "40" or "-2.5" (at most 4 decimals).')
  .refine((h) => Number(h) !== 0, { message: 'Must not be 0.' });
const LocalDate = z.iso.date().openapi({ example: '2026-12-21' });
const label = z.string().trim().min(1).max(100);
const id = z.string().min(1).max(64);

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** A month-day every year has ('02-29' is refused). */
const MonthDay = z
  .string()
  .regex(/^\d{2}-\d{2}$/, 'Use a month-day MM-DD such as "01-01".')
  .refine((md) => {
    const [m, d] = md.split('-').map(Number);
    return m >= 1 && m <= 12 && d >= 1 && d <= DAYS_IN_MONTH[m - 1];
  }, 'Use a month-day every year has (not 02-29).')
  .openapi({ example: '01-01' });


// ---- types

export const TimeOffTypeCreate = z
  .strictObject({
    name: label.openapi({ example: 'Vacation' }),
    paid: z.boolean(),
    allowNegativeBalance: z.boolean().default(false).openapi({ description: 'a request may take the balance below 0' }),
    hoursPerDay: dayHours.default('8').openapi({ description: 'hours a full day off counts', example: '8' }),
  })
  .openapi('TimeOffTypeCreate');

export const TimeOffType = z
  .object({
    id: z.string().openapi({ example: 'tot_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    name: z.string(),
    paid: z.boolean(),
    allowNegativeBalance: z.boolean(),
    hoursPerDay: z.string(),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('TimeOffType');

// ---- policies

export const TimeOffAccrual = z
  .discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('per_hour_worked'),
      hours: hours.openapi({ description: 'hours earned per `per` hours worked', example: '1' }),
      per: positiveHours.openapi({ example: '30' }),
    }),
    z.strictObject({ kind: z.literal('per_pay_period'), hours: hours.openapi({ description: 'hours earned at each pay period end', example: '3.08' }) }),
    z.strictObject({ kind: z.literal('none') }),
  ])
  .openapi('TimeOffAccrual');

export const TimeOffEligibility = z
  .strictObject({
    locationIds: z.array(id).max(500).default([]).openapi({ description: 'home or further locations; empty: every location' }),
    departmentIds: z.array(id).max(500).default([]).openapi({ description: 'empty: every department' }),
    positions: z.array(label).max(100).default([]).openapi({ description: 'any position held (case-insensitive); empty: every position' }),
  })
  .openapi('TimeOffEligibility');

const policyTerms = {
  accrual: TimeOffAccrual,
  cap: hours.nullable().openapi({ description: 'the balance never accrues above this; null: no cap', example: '40' }),
  carryOver: hours.nullable().openapi({ description: 'at most this many hours carry into a new policy year, the rest is forfeited; null: all', example: '16' }),
  yearStart: MonthDay.openapi({ description: 'the month-day a policy year starts' }),
};

export const TimeOffPolicyCreate = z
  .strictObject({
    typeId: id,
    name: label.openapi({ example: 'Vacation (full-time)' }),
    accrual: policyTerms.accrual,
    cap: policyTerms.cap.default(null),
    carryOver: policyTerms.carryOver.default(null),
    yearStart: policyTerms.yearStart.default('01-01'),
    eligibility: TimeOffEligibility.default({ locationIds: [], departmentIds: [], positions: [] }),
  })
  .openapi('TimeOffPolicyCreate');

export const TimeOffPolicyPatch = z
  .strictObject({
    name: label.optional(),
    accrual: policyTerms.accrual.optional(),
    cap: policyTerms.cap.optional(),
    carryOver: policyTerms.carryOver.optional(),
    yearStart: policyTerms.yearStart.optional(),
    eligibility: TimeOffEligibility.optional(),
  })
  .openapi('TimeOffPolicyPatch');

const TermsOut = z.object({
  accrual: z.union([
    z.object({ kind: z.literal('per_hour_worked'), hours: z.string(), per: z.string() }),
    z.object({ kind: z.literal('per_pay_period'), hours: z.string() }),
    z.object({ kind: z.literal('none') }),
  ]),
  cap: z.string().nullable(),
  carryOver: z.string().nullable(),
  yearStart: z.string(),
});

export const TimeOffPolicy = z
  .object({
    id: z.string().openapi({ example: 'top_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    typeId: z.string(),
    name: z.string(),
    ...TermsOut.shape,
    eligibility: z.object({ locationIds: z.array(z.string()), departmentIds: z.array(z.string()), positions: z.array(z.string()) }),
    effectiveFrom: z.string().nullable().openapi({ description: 'the date (company time zone) the current accrual terms apply from; null: from the start' }),
    history: z
      .array(z.object({ effectiveFrom: z.string().nullable(), effectiveTo: z.string(), terms: TermsOut }))
      .openapi({ description: 'earlier accrual terms, oldest first: balances before `effectiveFrom` are replayed with them' }),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('TimeOffPolicy');

export const TimeOffPolicyListQuery = ListQuery.extend({ typeId: id.optional(), updatedSince: Timestamp.optional() });
export const TimeOffTypeListQuery = ListQuery.extend({ updatedSince: Timestamp.optional() });

// ---- balances

export const TimeOffBalanceMovement = z.object({
  date: z.string(),
  kind: z.enum(['accrued', 'taken', 'restored', 'adjustment', 'forfeited']),
  hours: z.string().openapi({ description: 'the signed change to the balance' }),
  balanceAfter: z.string(),
  reason: z.string().optional(),
  requestId: z.string().optional(),
});

export const TimeOffBalance = z
  .object({
    employeeId: z.string(),
    typeId: z.string(),
    policyId: z.string(),
    asOf: z.string(),
    balance: z.string().openapi({ description: 'accrued − taken + adjusted − forfeited, as of `asOf`', example: '35.75' }),
    accrued: z.string(),
    taken: z.string().openapi({ description: 'approved time off deducted, net of cancelled requests given back' }),
    adjusted: z.string(),
    forfeited: z.string(),
    pendingHours: z.string().openapi({ description: 'hours of pending requests, not yet deducted' }),
    movements: z.array(TimeOffBalanceMovement).optional().openapi({ description: 'only when one employee is asked for' }),
  })
  .openapi('TimeOffBalance');

export const TimeOffBalanceQuery = ListQuery.extend({
  employeeId: id.optional(),
  typeId: id.optional(),
  asOf: LocalDate.optional().openapi({ description: 'default: today at the employee\'s home location' }),
}).openapi({ description: 'without `employeeId`, `limit` counts employees; each one\'s balances come together' });

export const MeTimeOffBalanceQuery = z.object({ typeId: id.optional(), asOf: LocalDate.optional() });

export const TimeOffBalanceAdjust = z
  .strictObject({
    employeeId: id,
    typeId: id,
    hours: signedHours.openapi({ example: '40' }),
    date: LocalDate.optional().openapi({ description: 'default: today at the employee\'s home location' }),
    reason: z.string().trim().min(1).max(500).openapi({ example: 'Opening balance from the HR tool' }),
  })
  .openapi('TimeOffBalanceAdjust');

// ---- requests

export const TimeOffRequestStatus = z.enum(['pending', 'approved', 'rejected', 'cancelled']);

const requestFields = {
  typeId: id,
  startDate: LocalDate,
  endDate: LocalDate,
  partialHours: dayHours.nullable().optional().openapi({ description: 'a part of one day: startDate and endDate the same' }),
  note: z.string().trim().max(500).nullable().optional(),
};

const datesInOrder = (b: { startDate: string; endDate: string; partialHours?: string | null }, ctx: z.RefinementCtx) => {
  // refinements run on fields that failed too: compare only real dates
  if (!LocalDate.safeParse(b.startDate).success || !LocalDate.safeParse(b.endDate).success) return;
  if (b.endDate < b.startDate) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'endDate must be on or after startDate.' });
  else if (b.partialHours != null && b.endDate !== b.startDate) ctx.addIssue({ code: 'custom', path: ['partialHours'], message: 'A partial day needs startDate and endDate to be the same day.' });
};

export const TimeOffRequestCreate = z
  .strictObject({ employeeId: id, ...requestFields })
  .superRefine(datesInOrder)
  .openapi('TimeOffRequestCreate');

export const MeTimeOffRequestCreate = z.strictObject(requestFields).superRefine(datesInOrder).openapi('MeTimeOffRequestCreate');

export const TimeOffRequest = z
  .object({
    id: z.string().openapi({ example: 'tor_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    employeeId: z.string(),
    typeId: z.string(),
    locationId: z.string().openapi({ description: "the employee's home location when requested" }),
    startDate: z.string(),
    endDate: z.string(),
    partialHours: z.string().nullable(),
    hours: z.string().openapi({ description: 'workdays (Monday to Friday) × the type\'s hours per day, or the partial hours' }),
    note: z.string().nullable(),
    status: TimeOffRequestStatus,
    requestedBy: Actor,
    decidedAt: Timestamp.nullable(),
    decidedBy: Actor.nullable(),
    rejectionReason: z.string().nullable(),
    cancelledAt: Timestamp.nullable(),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('TimeOffRequest');

export const TimeOffRequestListQuery = ListQuery.extend({
  status: TimeOffRequestStatus.optional(),
  employeeId: id.optional(),
  locationId: id.optional(),
  from: LocalDate.optional().openapi({ description: 'requests ending on or after this date' }),
  to: LocalDate.optional().openapi({ description: 'requests starting on or before this date' }),
  updatedSince: Timestamp.optional(),
});

export const MeTimeOffRequestListQuery = ListQuery.extend({ status: TimeOffRequestStatus.optional() });

export const TimeOffRequestReject = z.strictObject({ reason: z.string().trim().min(1).max(500) }).openapi('TimeOffRequestReject');

export const timeOffOperations = {
  'GET /time-off/types': { query: TimeOffTypeListQuery, response: listEnvelope(TimeOffType) },
  'POST /time-off/types': { body: TimeOffTypeCreate, response: TimeOffType, status: 201 },
  'GET /time-off/policies': { query: TimeOffPolicyListQuery, response: listEnvelope(TimeOffPolicy) },
  'POST /time-off/policies': { body: TimeOffPolicyCreate, response: TimeOffPolicy, status: 201 },
  'PATCH /time-off/policies/{id}': { params: IdParam, body: TimeOffPolicyPatch, response: TimeOffPolicy },
  'GET /time-off/balances': { query: TimeOffBalanceQuery, response: listEnvelope(TimeOffBalance) },
  'POST /time-off/balances:adjust': { body: TimeOffBalanceAdjust, response: TimeOffBalance },
  'GET /time-off/requests': { query: TimeOffRequestListQuery, response: listEnvelope(TimeOffRequest) },
  'POST /time-off/requests': { body: TimeOffRequestCreate, response: TimeOffRequest, status: 201 },
  'POST /time-off/requests/{id}:approve': { params: IdParam, response: TimeOffRequest },
  'POST /time-off/requests/{id}:reject': { params: IdParam, body: TimeOffRequestReject, response: TimeOffRequest },
  'GET /me/time-off/balances': { query: MeTimeOffBalanceQuery, response: listEnvelope(TimeOffBalance) },
  'GET /me/time-off/requests': { query: MeTimeOffRequestListQuery, response: listEnvelope(TimeOffRequest) },
  'POST /me/time-off/requests': { body: MeTimeOffRequestCreate, response: TimeOffRequest, status: 201 },
  'POST /me/time-off/requests/{id}:cancel': { params: IdParam, response: TimeOffRequest },
};
