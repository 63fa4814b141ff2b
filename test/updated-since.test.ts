/**
 * Every list whose query contract declares `updatedSince`, walked through the runtime (docs/api.md,
 * "Polling with updatedSince"): a bad value is refused with the field path, a time to come filters every
 * row out, a walk one row a page in change order ends (hasMore false, a cursor to poll on from) with the
 * same rows as the list in its id order, and a cursor of the id order is refused with the path `cursor`.
 * The commit-safety itself (writers committing out of order) is shared/test/changes.test.ts.
 */
import { z } from 'zod';
import { operations } from '@bop/contracts';
import { eventually, http, Receiver, startTestRuntime, type TestRuntime } from '@bop/test-support';

let t: TestRuntime;
let receiver: Receiver;
/** The parent of each list under one (`{id}` in its path): made in beforeAll. */
const parents: Record<string, string> = {};
beforeAll(async () => {
  t = await startTestRuntime({ STORAGE_S3_BUCKET: '', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  // a few rows for the lists to page: locations, org units, departments, roles, time-off types and item
  // categories (and the rows the runtime starts with elsewhere)
  for (const name of ['Since A', 'Since B', 'Since C']) expect((await api('POST', '/locations', { name, timezone: 'America/New_York' })).status).toBe(201);
  for (const name of ['Since A', 'Since B']) {
    expect((await api('POST', '/org-units', { name, kind: 'region' })).status).toBe(201);
    expect((await api('POST', '/departments', { name })).status).toBe(201);
    expect((await api('POST', '/roles', { name: `Role ${name}`, permissions: [] })).status).toBe(201);
    expect((await api('POST', '/time-off/types', { name, paid: true })).status).toBe(201);
    expect((await api('POST', '/item-categories', { name })).status).toBe(201);
  }
  // a webhook endpoint (a real local receiver) with a replay
  receiver = await Receiver.start();
  const endpoint = await api('POST', '/webhook-endpoints', { url: receiver.url, events: ['location.updated'], description: 'updatedSince' });
  expect(endpoint.status).toBe(201);
  parents['/webhook-endpoints/{id}/replays'] = endpoint.body.id;
  parents['/webhook-endpoints/{id}/deliveries'] = endpoint.body.id;
  expect((await api('POST', `/webhook-endpoints/${endpoint.body.id}:replay`, { from: new Date(Date.now() - 3_600_000).toISOString() })).status).toBeLessThan(300);
  // a published announcement (its audience: the employees communication knows now)
  const announcement = await api('POST', '/announcements', { title: 'Since', body: 'Polling', audience: {} });
  expect(announcement.status).toBe(201);
  expect((await api('POST', `/announcements/${announcement.body.id}:publish`, {})).status).toBe(200);
  parents['/announcements/{id}/acknowledgements'] = announcement.body.id;
}, 180_000);
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const api = (method: string, p: string, body?: unknown) => http(t.rt.url, method, `/api/v1${p}`, { body, headers: t.owner });
/** A list's path with its parent's id in place of `{id}`. */
const at = (path: string) => path.replace('{id}', parents[path] ?? '{id}');

/** The GET lists whose query schema has `updatedSince`. */
const lists = Object.entries(operations as Record<string, { query?: z.ZodType }>)
  .filter(([key, op]) => key.startsWith('GET ') && op.query instanceof z.ZodObject && 'updatedSince' in op.query.shape)
  .map(([key]) => key.slice(4));

/** A row's key: its id; a stock level's item and location; an acknowledgement's employee. */
const keyOf = (row: Record<string, unknown>) => (typeof row.id === 'string' ? row.id : 'itemId' in row ? `${String(row.itemId)}@${String(row.locationId)}` : String(row.employeeId));
const idCursor = Buffer.from(JSON.stringify({ a: 'zzz' }), 'utf8').toString('base64url');

it('finds the lists that declare updatedSince, and has a parent for each list under one', () => {
  expect(lists.filter((p) => p.includes('{')).filter((p) => !(p in parents))).toEqual([]);
  expect(lists).toEqual(
    expect.arrayContaining(['/webhook-endpoints/{id}/deliveries', '/locations', '/employees', '/sales/transactions', '/stock-levels', '/time/punches', '/cash/deposits', '/purchase-orders', '/org-units', '/departments', '/roles', '/users', '/time-off/types', '/item-categories', '/storage-areas', '/shifts', '/work-orders', '/customer-invoices', '/cash/bank-transactions', '/alert-rules', '/webhook-endpoints/{id}/replays', '/announcements/{id}/acknowledgements']),
  );
  expect(lists.length).toBeGreaterThanOrEqual(56);
});

describe.each(lists)('GET %s?updatedSince', (path) => {
  it('refuses a bad value with the path updatedSince', async () => {
    const r = await api('GET', `${at(path)}?updatedSince=yesterday`);
    expect([400, 422]).toContain(r.status);
    expect(r.body.errors.map((e: { path: string }) => e.path)).toContain('updatedSince');
  });

  it('filters out rows not changed since a time to come', async () => {
    const r = await api('GET', `${at(path)}?updatedSince=${encodeURIComponent(new Date(Date.now() + 86_400_000).toISOString())}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([]);
    expect(r.body.hasMore).toBe(false);
    expect(typeof r.body.nextCursor).toBe('string');
  });

  it('pages in change order through the same rows as the id order, and refuses a cursor of the other order', async () => {
    const all = await api('GET', `${at(path)}?limit=200`);
    expect(all.status).toBe(200);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 250; i++) {
      const r = await api('GET', `${at(path)}?limit=1&updatedSince=2000-01-01T00:00:00Z${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status).toBe(200);
      seen.push(...r.body.data.map(keyOf));
      expect(typeof r.body.nextCursor).toBe('string');
      cursor = r.body.nextCursor;
      if (!r.body.hasMore) break;
    }
    // caught up once polling on from the cursor answers nothing: no writer of this database runs, but
    // a transaction still running anywhere on the server (another test file's) holds the horizon back,
    // and rows past it come again until it ends
    await eventually(async () => {
      const again = await api('GET', `${at(path)}?updatedSince=2000-01-01T00:00:00Z&cursor=${cursor}`);
      expect(again.status).toBe(200);
      seen.push(...again.body.data.map(keyOf));
      cursor = again.body.nextCursor;
      return again.body.data.length === 0;
    }, 60_000);
    expect([...new Set(seen)].sort()).toEqual(all.body.data.map(keyOf).sort());
    const wrong = await api('GET', `${at(path)}?updatedSince=2000-01-01T00:00:00Z&cursor=${idCursor}`);
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors.map((e: { path: string }) => e.path)).toEqual(['cursor']);
  });
});
