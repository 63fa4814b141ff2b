import { integration, person, sql, type TestService } from '@bop/test-support';
import type { Principal } from '@bop/shared';

/** The timeclock's principal (punches:batch is for integration keys). */
export const timeclock = integration(['time:write', 'time:read']);

let n = 0;
const next = () => `${Date.now().toString(36)}${(n += 1)}`;

/** A location in time's organization replica. */
export async function replicaLocation(t: TestService, o: { timezone?: string; externalId?: string | null; status?: string } = {}): Promise<string> {
  const id = `loc_t${next()}`;
  await sql(t, `insert into time.locations (id, external_id, timezone, business_day_cutoff, status, org_unit_id, updated_at) values ($1, $2, $3, '04:00', $4, null, now())`, [
    id,
    o.externalId ?? null,
    o.timezone ?? 'UTC',
    o.status ?? 'active',
  ]);
  return id;
}

/** An employee in time's people replica. */
export async function replicaEmployee(
  t: TestService,
  o: { home: string; locationIds?: string[]; positions?: string[]; externalId?: string | null; terminationDate?: string | null; status?: string; hireDate?: string; firstName?: string },
): Promise<string> {
  const id = `emp_t${next()}`;
  await sql(
    t,
    `insert into time.employees (id, external_id, employee_number, first_name, last_name, status, home_location_id, location_ids, department_id, positions, hire_date, termination_date, user_id, version, updated_at)
     values ($1, $2, $3, $4, 'Tester', $5, $6, $7, null, $8, $9, $10, null, 1, now())`,
    [id, o.externalId ?? null, `N-${id.slice(-4)}`, o.firstName ?? 'Pat', o.status ?? 'active', o.home, o.locationIds ?? [], o.positions ?? ['Cook'], o.hireDate ?? '2025-01-01', o.terminationDate ?? null],
  );
  return id;
}

/** A pay rate in time's replica. */
export async function replicaRate(t: TestService, employeeId: string, amount: string, effectiveDate: string, position: string | null = null): Promise<void> {
  await sql(t, `insert into time.pay_rates (id, employee_id, type, amount, position, effective_date) values ($1, $2, 'hourly', $3, $4, $5)`, [`prt_t${next()}`, employeeId, amount, position, effectiveDate]);
}

/** A punch record as a timeclock sends it. */
export function punch(externalId: string, employeeId: string, locationId: string, type: string, occurredAt: string, extra: Record<string, unknown> = {}) {
  return { externalId, employeeId, locationId, type, occurredAt, ...extra };
}

/** In and out of one shift (no break). */
export function shift(prefix: string, employeeId: string, locationId: string, from: string, to: string) {
  return [punch(`${prefix}-in`, employeeId, locationId, 'clock_in', from), punch(`${prefix}-out`, employeeId, locationId, 'clock_out', to)];
}

/** Punches sent by the timeclock integration. */
export function sendPunches(t: TestService, source: string, punches: unknown[], as: Principal = timeclock) {
  return t.call('POST', '/time/punches:batch', { body: { source, punches }, as });
}

/**
 * Runs the background recalculation's rounds until nothing is marked (the tests start time without its
 * worker loop: `startTestService(timeService, {}, { workers: false })`).
 */
export async function recalculate(t: TestService): Promise<void> {
  while ((await t.svc.worker('timesheet-recalc').runOnce()) !== false);
}

/** The employee's (first) timesheet, its figures counting every change (recalculated first). */
export async function currentTimesheet(t: TestService, employeeId: string, as: Principal = person()) {
  await recalculate(t);
  const s = (await t.call('GET', `/time/timesheets?employeeId=${employeeId}`, { as })).body.data?.[0];
  if (!s?.current || !s.calculatedAt) throw new Error(`the timesheet of ${employeeId} is not current after the recalculation: ${JSON.stringify(s)}`);
  return s;
}
