import { z } from '../zod';

/**
 * `POST /internal/employees:resolve` (people): the current state of the employees named, for a service
 * that takes an employee id on a write (files: the employee an upload concerns). Unknown ids are absent.
 */
export const EmployeesResolveRequest = z.strictObject({ ids: z.array(z.string().min(1).max(64)).max(2000) });
export type EmployeesResolveRequest = z.output<typeof EmployeesResolveRequest>;

export const ResolvedEmployee = z.object({ id: z.string(), status: z.string(), homeLocationId: z.string(), locationIds: z.array(z.string()), userId: z.string().nullable() });
export type ResolvedEmployee = z.output<typeof ResolvedEmployee>;

export const EmployeesResolveAnswer = z.object({ data: z.array(ResolvedEmployee) });
export type EmployeesResolveAnswer = z.output<typeof EmployeesResolveAnswer>;
