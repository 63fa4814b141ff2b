import { sql, type TestService } from '@bop/test-support';

let n = 0;
/** A location in people's replica (organization is not running: the replica decides). */
export async function replicaLocation(t: TestService, timezone = 'America/New_York', status = 'active'): Promise<string> {
  n += 1;
  const id = `loc_people${n}`;
  await sql(t, `insert into people.locations (id, external_id, timezone, business_day_cutoff, status, org_unit_id, updated_at) values ($1, null, $2, '04:00', $3, null, now())`, [id, timezone, status]);
  return id;
}

/** A department in people's replica. */
export async function replicaDepartment(t: TestService, locationId: string | null, status = 'active'): Promise<string> {
  n += 1;
  const id = `dep_people${n}`;
  await sql(t, `insert into people.departments (id, location_id, status, updated_at) values ($1, $2, $3, now())`, [id, locationId, status]);
  return id;
}

export function employeeBody(homeLocationId: string, over: Record<string, unknown> = {}) {
  n += 1;
  return { legalFirstName: 'Ana', legalLastName: `Silva ${n}`, homeLocationId, hireDate: '2026-01-05', ...over };
}

export async function newEmployee(t: TestService, homeLocationId: string, over: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/employees', { body: employeeBody(homeLocationId, over) });
  if (res.status !== 201) throw new Error(`employee: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; version: number; [k: string]: any };
}
