import { person, sql, type TestService } from '@bop/test-support';
import type { Principal } from '@bop/shared';

let n = 0;
const next = () => `${Date.now().toString(36)}${(n += 1)}`;

/** A location in communication's organization replica. */
export async function replicaLocation(t: TestService, o: { status?: string } = {}): Promise<string> {
  const id = `loc_c${next()}`;
  await sql(t, `insert into communication.locations (id, external_id, timezone, business_day_cutoff, status, org_unit_id, updated_at) values ($1, null, 'UTC', '04:00', $2, null, now())`, [id, o.status ?? 'active']);
  return id;
}

/** An employee in communication's people replica. */
export async function replicaEmployee(
  t: TestService,
  o: { home: string; locations?: string[]; department?: string | null; positions?: string[]; status?: string; firstName?: string },
): Promise<string> {
  const id = `emp_c${next()}`;
  await sql(
    t,
    `insert into communication.employees (id, external_id, employee_number, first_name, last_name, status, home_location_id, location_ids, department_id, positions, hire_date, termination_date, user_id, version, updated_at)
     values ($1, null, null, $2, 'Cook', $3, $4, $5, $6, $7, '2025-01-01', null, null, 1, now())`,
    [id, o.firstName ?? 'Sam', o.status ?? 'active', o.home, o.locations ?? [], o.department ?? null, o.positions ?? []],
  );
  return id;
}

/** A published shift in communication's shift replica. */
export async function replicaShift(t: TestService, o: { locationId: string; employeeId: string | null; date: string; status?: string }): Promise<string> {
  const id = `shf_c${next()}`;
  await sql(
    t,
    `insert into communication.shifts (id, location_id, employee_id, position, start_at, end_at, local_date, status, version, updated_at)
     values ($1, $2, $3, 'cook', ($4::date + time '09:00') at time zone 'UTC', ($4::date + time '17:00') at time zone 'UTC', $4::date, $5, 1, now())`,
    [id, o.locationId, o.employeeId, o.date, o.status ?? 'published'],
  );
  return id;
}

/** A person whose announcement permissions reach only these locations. */
export function managerAt(...locationIds: string[]): Principal {
  const reach = [{ type: 'locations' as const, ids: locationIds }];
  return person({ 'announcements.read': reach, 'announcements.manage': reach, 'announcements.publish': reach });
}

/** An employee acting for themselves (the gateway's `/me` rows). */
export const me = (employeeId: string): Principal => person({}, { employeeId, actingAsEmployee: true });

/** A new draft (201 expected); answers it. */
export async function newDraft(t: TestService, over: Record<string, unknown> = {}, as?: Principal): Promise<any> {
  const r = await t.call('POST', '/announcements', { body: { title: 'New allergen procedure', body: 'Read it and confirm by Friday.', audience: {}, ...over }, as });
  if (r.status !== 201) throw new Error(`announcement not created: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

export const paths = (body: { errors?: Array<{ path: string }> }) => (body.errors ?? []).map((e) => e.path).sort();
