import { sql, type TestService } from '@bop/test-support';

let n = 0;
const next = () => `${Date.now().toString(36)}${(n += 1)}`;

/** A unique name for a company-wide record (types are unique by name across the file's tests). */
export const uniqueName = (base: string) => `${base} ${next()}`;

/** Puts an employee of time's replica in a department. */
export async function inDepartment(t: TestService, employeeId: string, departmentId: string): Promise<void> {
  await sql(t, `update time.employees set department_id = $2 where id = $1`, [employeeId, departmentId]);
}

/**
 * A timesheet in time's replica-free tables with the given hours worked per day, as the background
 * recalculation would have stored them (only `days[].date` and `days[].workedHours` matter to time off).
 */
export async function workedTimesheet(t: TestService, employeeId: string, locationId: string, days: Array<[date: string, hours: string]>, status = 'approved'): Promise<string> {
  const id = `tsh_t${next()}`;
  const figures = {
    days: days.map(([date, workedHours]) => ({ date, workedHours, paidBreakHours: '0.00', unpaidBreakHours: '0.00', regularHours: workedHours, overtime: {}, shifts: [] })),
    weeks: [],
    totals: { workedHours: '0.00', regularHours: '0.00', overtime: {}, paidBreakHours: '0.00', unpaidBreakHours: '0.00' },
    exceptions: [],
    missingPunches: false,
    inProgress: false,
  };
  await sql(
    t,
    `insert into time.timesheets (id, employee_id, pay_period_id, location_id, status, figures, missing_punches, calculated_at, version, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6::jsonb, false, now(), 1, now(), now())`,
    [id, employeeId, `ppd_t${next()}`, locationId, status, JSON.stringify(figures)],
  );
  return id;
}

/** A stored pay period (company-wide: unique on its start date). */
export async function storedPayPeriod(t: TestService, startDate: string, endDate: string): Promise<string> {
  const id = `ppd_t${next()}`;
  await sql(t, `insert into time.pay_periods (id, start_date, end_date, unlocks, version, created_at, updated_at) values ($1, $2, $3, '[]', 1, now(), now())`, [id, startDate, endDate]);
  return id;
}
