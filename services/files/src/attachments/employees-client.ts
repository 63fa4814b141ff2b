import type { EmployeesResolveAnswer } from '@bop/contracts';
import { callCommand, type FieldError, type ServiceClient } from '@bop/shared';

/**
 * The employee an upload names, as people says now (read-your-writes: one created a moment ago is
 * accepted): a field error when people does not know it or it is archived, none when fine. A files
 * service run without a way to people (tests of the service alone) checks the id's form only.
 */
export function employeeChecker(services: ServiceClient, requestId?: string): (employeeId: string) => Promise<FieldError | null> {
  return async (employeeId) => {
    if (!services.has('people')) return employeeId.startsWith('emp_') ? null : { path: 'employeeId', message: `${employeeId} is not an employee id.` };
    const answer = await callCommand<EmployeesResolveAnswer>(services, 'people', 'POST', '/internal/employees:resolve', { ids: [employeeId] }, { what: 'check the employee', ok: [200], requestId });
    const e = answer.data.find((x) => x.id === employeeId);
    if (!e) return { path: 'employeeId', message: `No employee ${employeeId}.` };
    if (e.status === 'archived') return { path: 'employeeId', message: `Employee ${employeeId} is archived.` };
    return null;
  };
}
