import { permissions as catalogue, permissionNames } from '@bop/contracts';
import type { Reach } from '@bop/shared';

export interface RoleGrant {
  permissions: string[];
  reach: Reach;
}

const supportedReaches = new Map(catalogue.map((p) => [p.name, new Set<string>(p.reaches)]));
const REACH_ORDER = ['org_units', 'locations', 'employee_set'] as const;

/**
 * A person's permissions: for each permission, the union of the reaches of the assignments whose role
 * holds it (spec: Authentication rule 4). A permission counts only at a reach type the catalogue says
 * it supports, so a location-bound assignment never grants a company-level permission.
 */
export function effectivePermissions(grants: RoleGrant[]): Record<string, Reach[]> {
  const acc = new Map<string, { everyone: boolean; ids: Record<(typeof REACH_ORDER)[number], Set<string>> }>();
  for (const grant of grants) {
    for (const name of grant.permissions) {
      if (!supportedReaches.get(name)?.has(grant.reach.type)) continue;
      let entry = acc.get(name);
      if (!entry) acc.set(name, (entry = { everyone: false, ids: { org_units: new Set(), locations: new Set(), employee_set: new Set() } }));
      if (grant.reach.type === 'everyone') entry.everyone = true;
      else for (const id of grant.reach.ids) entry.ids[grant.reach.type].add(id);
    }
  }
  const out: Record<string, Reach[]> = {};
  for (const name of [...acc.keys()].sort()) {
    const entry = acc.get(name)!;
    if (entry.everyone) {
      out[name] = [{ type: 'everyone' }];
      continue;
    }
    out[name] = REACH_ORDER.filter((t) => entry.ids[t].size > 0).map((t) => ({ type: t, ids: [...entry.ids[t]].sort() }));
  }
  return out;
}

/** Is this assignment an owner at Everyone (the assignment that keeps the company administrable)? */
export function isOwnerGrant(roleKey: string | null, reach: Reach): boolean {
  return roleKey === 'owner' && reach.type === 'everyone';
}

const ADMINISTRATION = new Set([
  'users.manage',
  'roles.manage',
  'roles.assign',
  'features.manage',
  'settings.manage',
  'integrations.manage',
  'webhooks.manage',
  'api_keys.manage',
]);

const EMPLOYEE = ['checklists.complete', 'recognition.give', 'work_orders.create', 'stock_counts.count'];

export interface BuiltInRole {
  key: 'owner' | 'manager' | 'employee';
  name: string;
  description: string;
  permissions: string[];
}

/** The built-in roles, computed from the catalogue so new permissions reach the owner on the next start. */
export function builtInRoles(): BuiltInRole[] {
  return [
    { key: 'owner', name: 'Owner', description: 'Every permission. Cannot be changed or archived.', permissions: [...permissionNames] },
    {
      key: 'manager',
      name: 'Manager',
      description: 'Runs day-to-day operations; no administration of users, roles, features, settings, integrations, webhooks or others\' keys.',
      permissions: permissionNames.filter((n) => !ADMINISTRATION.has(n)),
    },
    { key: 'employee', name: 'Employee', description: 'Completes checklists, counts stock, reports faults and gives recognition.', permissions: EMPLOYEE.filter((n) => permissionNames.includes(n)) },
  ];
}
