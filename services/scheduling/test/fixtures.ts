import { person, sql, type TestService } from '@bop/test-support';
import type { Principal } from '@bop/shared';

let n = 0;
const next = () => `${Date.now().toString(36)}${(n += 1)}`;

/** A location in scheduling's organization replica. */
export async function replicaLocation(t: TestService, o: { timezone?: string; status?: string } = {}): Promise<string> {
  const id = `loc_s${next()}`;
  await sql(t, `insert into scheduling.locations (id, external_id, timezone, business_day_cutoff, status, org_unit_id, updated_at) values ($1, null, $2, '04:00', $3, null, now())`, [
    id,
    o.timezone ?? 'UTC',
    o.status ?? 'active',
  ]);
  return id;
}

/** An employee in scheduling's people replica. */
export async function replicaEmployee(
  t: TestService,
  o: { home: string; locationIds?: string[]; positions?: string[]; terminationDate?: string | null; status?: string; firstName?: string },
): Promise<string> {
  const id = `emp_s${next()}`;
  await sql(
    t,
    `insert into scheduling.employees (id, external_id, employee_number, first_name, last_name, status, home_location_id, location_ids, department_id, positions, hire_date, termination_date, user_id, version, updated_at)
     values ($1, null, $2, $3, 'Tester', $4, $5, $6, null, $7, '2025-01-01', $8, null, 1, now())`,
    [id, `N-${id.slice(-4)}`, o.firstName ?? 'Pat', o.status ?? 'active', o.home, o.locationIds ?? [o.home], o.positions ?? ['Cook'], o.terminationDate ?? null],
  );
  return id;
}

/** The employee's own session (a user linked to the employee record, acting in /me). */
export const me = (employeeId: string): Principal => person({}, { employeeId, actingAsEmployee: true });

export const codes = (r: { body: { warnings?: Array<{ code: string }> } }) => (r.body.warnings ?? []).map((w) => w.code).sort();

/** A pay rate in scheduling's replica. */
export async function replicaRate(t: TestService, employeeId: string, amount: string, effectiveDate = '2025-01-01', o: { position?: string | null; type?: 'hourly' | 'salary' } = {}): Promise<void> {
  await sql(t, `insert into scheduling.pay_rates (id, employee_id, type, amount, position, effective_date) values ($1, $2, $3, $4, $5, $6)`, [
    `prt_s${next()}`,
    employeeId,
    o.type ?? 'hourly',
    amount,
    o.position ?? null,
    effectiveDate,
  ]);
}
