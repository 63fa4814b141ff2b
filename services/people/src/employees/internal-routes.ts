import { EmployeesResolveRequest, type EmployeesResolveAnswer } from '@bop/contracts';
import { internalRoute, ok, type InternalRouteDef } from '@bop/shared';
import { resolveEmployees } from './store';

/** People's internal read for services that take an employee id on a write (files). System principal only. */
export const employeeInternalRoutes = (): InternalRouteDef[] => [
  internalRoute('POST /internal/employees:resolve', { body: EmployeesResolveRequest }, async (ctx) => {
    const rows = await resolveEmployees(ctx.em, ctx.body.ids);
    const answer: EmployeesResolveAnswer = { data: rows.map((e) => ({ id: e.id, status: e.status, homeLocationId: e.homeLocationId, locationIds: e.locationIds, userId: e.userId ?? null })) };
    return ok(answer);
  }),
];
