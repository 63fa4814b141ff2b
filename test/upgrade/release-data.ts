/**
 * What a release writes through the API for the upgrade test (upgrade.test.ts): the sale flow (a
 * location, an item and its stock, a webhook endpoint and its delivery, an integration and its sale,
 * the day's expected cash), an employee, a drawer count and a supplier. The same calls are made once
 * by the previous release (to write the fixture, see make-fixture.fixture.ts) and once by this one.
 */
import { eventually, http, type Receiver } from '@bop/test-support';
import { saleFlow } from '../sale-flow';

export interface ReleaseData {
  locationId: string;
  itemId: string;
  employeeId: string;
  countId: string;
  supplierId: string;
  day: string;
}

export async function writeReleaseData(base: string, admin: { email: string; password: string }, receiver: Receiver, tag: string): Promise<ReleaseData> {
  const { locationId, itemId } = await saleFlow(base, admin, receiver, tag);
  const signIn = await http(base, 'POST', '/api/v1/auth/sign-in', { body: admin });
  const auth = { authorization: `Bearer ${signIn.body.token}` };
  const call = async (method: string, path: string, body?: unknown, status = 201) => {
    const r = await http(base, method, `/api/v1${path}`, { headers: auth, body });
    if (r.status !== status) throw new Error(`${method} ${path}: expected ${status}, got ${r.status}: ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const employee = await call('POST', '/employees', { legalFirstName: 'Rita', legalLastName: 'Sousa', homeLocationId: locationId, hireDate: '2026-05-01', email: `rita.${tag.toLowerCase()}@example.com` });
  const day = new Date(Date.now() - 24 * 3600_000).toISOString().slice(0, 10);
  const count = await call('POST', '/cash/counts', { locationId, type: 'drawer', drawerId: 'R1', businessDay: day, amount: '6.00', countedAt: `${day}T23:00:00Z` });
  const supplier = await call('POST', '/suppliers', { name: `Supplier ${tag}` });
  // every outbox row published: the bus holds what the release emitted
  await eventually(async () => (await call('GET', `/employees/${employee.id}`, undefined, 200)).id === employee.id, 30_000, 200);
  return { locationId, itemId, employeeId: employee.id, countId: count.id, supplierId: supplier.id, day };
}
