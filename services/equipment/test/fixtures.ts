import { person, sql, type TestService } from '@bop/test-support';
import type { Principal } from '@bop/shared';

let n = 0;
const next = () => `${Date.now().toString(36)}${(n += 1)}`;

/** A location in equipment's organization replica. */
export async function replicaLocation(t: TestService, o: { timezone?: string; status?: string } = {}): Promise<string> {
  const id = `loc_e${next()}`;
  await sql(t, `insert into equipment.locations (id, external_id, timezone, business_day_cutoff, status, org_unit_id, updated_at) values ($1, null, $2, '04:00', $3, null, now())`, [id, o.timezone ?? 'UTC', o.status ?? 'active']);
  return id;
}

/** An employee in equipment's people replica. */
export async function replicaEmployee(t: TestService, o: { home: string; status?: string }): Promise<string> {
  const id = `emp_e${next()}`;
  await sql(
    t,
    `insert into equipment.employees (id, external_id, employee_number, first_name, last_name, status, home_location_id, location_ids, department_id, positions, hire_date, termination_date, user_id, version, updated_at)
     values ($1, null, null, 'Sam', 'Fixer', $2, $3, '{}', null, '{}', '2025-01-01', null, null, 1, now())`,
    [id, o.status ?? 'active', o.home],
  );
  return id;
}

/** A person whose equipment permissions reach only these locations. */
export function managerAt(...locationIds: string[]): Principal {
  const reach = [{ type: 'locations' as const, ids: locationIds }];
  return person({
    'equipment.read': reach,
    'assets.manage': reach,
    'meter_readings.record': reach,
    'maintenance.manage': reach,
    'work_orders.create': reach,
    'work_orders.manage': reach,
  });
}

/** A new asset at a location (201 expected); answers its id. */
export async function newAsset(t: TestService, locationId: string, over: Record<string, unknown> = {}): Promise<string> {
  const r = await t.call('POST', '/assets', { body: { name: 'Fryer 2', category: 'Fryers', make: 'Frymaster', model: 'MJ45', locationId, ...over } });
  if (r.status !== 201) throw new Error(`asset not created: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id;
}

/** Meter readings sent for an asset. */
export function readMeters(t: TestService, assetId: string, readings: unknown[], as?: Principal) {
  return t.call('POST', `/assets/${assetId}/meter-readings`, { body: { readings }, as });
}

export const paths = (body: { errors?: Array<{ path: string }> }) => (body.errors ?? []).map((e) => e.path).sort();
