/**
 * Org-unit reach in sales: the kit resolves a person's org units to the locations in them (and in
 * their sub-units) from sales' replicas of organization's org-unit and location events.
 */
import { organizationService } from '@svc/organization';
import { salesService } from '../src';
import { eventually, integration, person, serviceSql, startTestServices, type ServiceSql, type TestServices } from '@bop/test-support';

let stack: TestServices;
const pos = integration(['sales:write', 'sales:read']);
const units: Record<string, string> = {};
const locations: Record<string, string> = {};
const sql: ServiceSql = (q, p) => serviceSql(stack.services.sales)(q, p);

const sale = (externalId: string, locationId: string) => ({
  externalId,
  locationId,
  occurredAt: '2026-11-20T15:00:00Z',
  lines: [{ itemSku: 'TEA', quantity: '1', unitPrice: '3.00' }],
  tenders: [{ type: 'card', amount: '3.00' }],
  subtotal: '3.00',
  tax: '0.00',
  total: '3.00',
  currency: 'EUR',
});

beforeAll(async () => {
  stack = await startTestServices([organizationService, salesService]);
  const org = stack.services.organization;
  const unit = async (name: string, parentId?: string) => (await org.call('POST', '/org-units', { body: { name, ...(parentId ? { parentId } : {}) } })).body.id as string;
  units.north = await unit('North');
  units.city = await unit('North city', units.north);
  units.south = await unit('South');
  const location = async (name: string, orgUnitId: string) => (await org.call('POST', '/locations', { body: { name, timezone: 'Europe/Paris', orgUnitId } })).body.id as string;
  locations.harbour = await location('Harbour', units.city);
  locations.hill = await location('Hill', units.north);
  locations.beach = await location('Beach', units.south);
  await eventually(async () => (await sql(`select 1 from sales.locations where org_unit_id is not null`)).length === 3);
  await eventually(async () => (await sql(`select 1 from sales.org_units`)).length === 3);
  const r = await stack.services.sales.call('POST', '/sales/transactions:batch', {
    as: pos,
    body: { source: 'pos-reach', transactions: [sale('H-1', locations.harbour), sale('I-1', locations.hill), sale('B-1', locations.beach)] },
  });
  expect(r.body.created).toBe(3);
});
afterAll(async () => {
  await stack?.close();
});

const list = (who: ReturnType<typeof person>, query = '') => stack.services.sales.call('GET', `/sales/transactions?source=pos-reach${query}`, { as: who });

it('shows a person with org-unit reach the locations of that unit and its sub-units', async () => {
  const north = person({ 'sales.read': [{ type: 'org_units', ids: [units.north] }] });
  const r = await list(north);
  expect(r.status).toBe(200);
  expect(r.body.data.map((t: any) => t.externalId).sort()).toEqual(['H-1', 'I-1']);
  const city = person({ 'sales.read': [{ type: 'org_units', ids: [units.city] }] });
  expect((await list(city)).body.data.map((t: any) => t.externalId)).toEqual(['H-1']);
});

it('adds location reach to org-unit reach, and refuses a location outside both', async () => {
  const mixed = person({ 'sales.read': [{ type: 'org_units', ids: [units.city] }, { type: 'locations', ids: [locations.beach] }] });
  expect((await list(mixed)).body.data.map((t: any) => t.externalId).sort()).toEqual(['B-1', 'H-1']);
  const r = await list(mixed, `&locationId=${locations.hill}`);
  expect(r.status).toBe(403);
  expect(r.body.code).toBe('out_of_reach');
});

it('follows a location moved to another org unit', async () => {
  const org = stack.services.organization;
  const moved = await org.call('PATCH', `/locations/${locations.beach}`, { body: { orgUnitId: units.north } });
  expect(moved.status).toBe(200);
  await eventually(async () => (await sql(`select org_unit_id from sales.locations where id = ?`, [locations.beach]))[0]?.org_unit_id === units.north);
  const north = person({ 'sales.read': [{ type: 'org_units', ids: [units.north] }] });
  expect((await list(north)).body.data.map((t: any) => t.externalId).sort()).toEqual(['B-1', 'H-1', 'I-1']);
  const south = person({ 'sales.read': [{ type: 'org_units', ids: [units.south] }] });
  expect((await list(south)).body.data).toEqual([]);
});
