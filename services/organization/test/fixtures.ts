import type { Principal } from '@bop/shared';
import type { TestService } from '@bop/test-support';

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
