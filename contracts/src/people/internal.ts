import { z } from '../zod';

/**
 * `POST /internal/employees:resolve` (people): the current state of the employees named, by id or by
 * externalId, for a service that takes an employee on a write (files: the employee an upload concerns;
 * time: the employee a punch names) and for the employee replicas of other services (read-through).
 * Unknown ones are absent.
 */
export const EmployeesResolveRequest = z.strictObject({
  ids: z.array(z.string().min(1).max(64)).max(2000).default([]),
  externalIds: z.array(z.string().min(1).max(200)).max(2000).default([]),
  /** false: without their pay rates (a write that only checks who the employees are and where they work) */
  payRates: z.boolean().default(true),
  /**
   * The versions the caller's replica holds: an employee named here whose version people still has is
   * answered in `current` (by id) instead of whole, so a caller that must see the current state (a punch
   * of a terminated employee) pays for the few that changed, not for all of them.
   */
  known: z.array(z.strictObject({ id: z.string().min(1).max(64), version: z.number().int() })).max(2000).default([]),
});
export type EmployeesResolveRequest = z.input<typeof EmployeesResolveRequest>;

/** A pay rate as the replicas keep it (people's `PayRate` without its audit fields). */
export const ReplicatedPayRate = z.object({
  id: z.string(),
  type: z.enum(['hourly', 'salary']),
  amount: z.string(),
  position: z.string().nullable(),
  effectiveDate: z.string(),
});
export type ReplicatedPayRate = z.output<typeof ReplicatedPayRate>;

export const ResolvedEmployee = z.object({
  id: z.string(),
  externalId: z.string().nullable(),
  employeeNumber: z.string().nullable(),
  /** the preferred name, else the legal first name */
  firstName: z.string(),
  lastName: z.string(),
  status: z.string(),
  homeLocationId: z.string(),
  locationIds: z.array(z.string()),
  departmentId: z.string().nullable(),
  positions: z.array(z.string()),
  hireDate: z.string(),
  terminationDate: z.string().nullable(),
  userId: z.string().nullable(),
  version: z.number().int(),
  updatedAt: z.string(),
  /** absent when the request asked for none */
  payRates: z.array(ReplicatedPayRate).optional(),
});
export type ResolvedEmployee = z.output<typeof ResolvedEmployee>;

/** `data`: the employees named, whole; `current`: the ids of those at the version the caller said it knows (not in `data`). Unknown ones are in neither. */
export const EmployeesResolveAnswer = z.object({ data: z.array(ResolvedEmployee), current: z.array(z.string()).default([]) });
export type EmployeesResolveAnswer = z.output<typeof EmployeesResolveAnswer>;
