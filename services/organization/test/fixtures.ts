import type { Principal } from '@bop/shared';
import type { TestService } from '../../../test/harness';

let n = 0;
export function newLocationBody(over: Record<string, unknown> = {}) {
  n += 1;
  return { name: `Store ${n}`, timezone: 'America/New_York', businessDayCutoff: '04:00', ...over };
}

export async function newLocation(t: TestService, over: Record<string, unknown> = {}, as?: Principal) {
  const res = await t.call('POST', '/locations', { body: newLocationBody(over), as });
  if (res.status !== 201) throw new Error(`newLocation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; version: number; [k: string]: unknown };
}

export async function newOrgUnit(t: TestService, name: string, parentId: string | null = null) {
  const res = await t.call('POST', '/org-units', { body: { name, parentId } });
  if (res.status !== 201) throw new Error(`newOrgUnit failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; version: number; path: string[] };
}

export async function outboxRows(t: TestService) {
  const { Client } = await import('pg');
  const c = new Client({ connectionString: t.db.url });
  await c.connect();
  const r = await c.query('select type, aggregate_id, location_id, payload from organization.outbox order by seq');
  await c.end();
  return r.rows as Array<{ type: string; aggregate_id: string; location_id: string | null; payload: any }>;
}
