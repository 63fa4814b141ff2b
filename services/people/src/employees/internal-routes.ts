import { EmployeesResolveRequest, type EmployeesResolveAnswer } from '@bop/contracts';
import { internalRoute, ok, type InternalRouteDef } from '@bop/shared';
import { resolveEmployees } from './store';
import { replicatedEmployee } from './dto';

/** People's internal read for services that take an employee on a write and for their employee replicas. System principal only. */
export const employeeInternalRoutes = (): InternalRouteDef[] => [
  internalRoute(
    'POST /internal/employees:resolve',
    { body: EmployeesResolveRequest },
    async (ctx) => {
      const { employees, rates, current } = await resolveEmployees(ctx, ctx.body, { payRates: ctx.body.payRates, known: ctx.body.known });
      const answer: EmployeesResolveAnswer = { data: employees.map((e) => replicatedEmployee(e, ctx.body.payRates ? (rates.get(e.id) ?? []) : null)), current };
      return ok(answer);
    },
    // a read (asked for every batch of punches): no transaction, as before units
    { transaction: false },
  ),
];
