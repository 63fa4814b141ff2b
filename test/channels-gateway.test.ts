/**
 * Channels and messages through the gateway (all-in-one runtime): credentials, the `communication:*`
 * scopes of integration keys, and the `communication.messages` feature switch (under `communication`).
 */
import { http, startTestRuntime, type TestRuntime } from '@bop/test-support';

let t: TestRuntime;
beforeAll(async () => {
  t = await startTestRuntime();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const api = (method: string, p: string, headers: Record<string, string>, body?: unknown) => http(t.rt.url, method, `/api/v1${p}`, { body, headers });

async function keyWith(name: string, scopes: string[]): Promise<Record<string, string>> {
  const r = await api('POST', '/integrations', t.owner, { manifest: { name, version: '1.0.0', description: name, scopes, webhooks: [] } });
  if (r.status !== 201) throw new Error(`integration: ${r.status} ${JSON.stringify(r.body)}`);
  return { authorization: `Bearer ${r.body.apiKey}` };
}

it('checks credentials, scopes and the communication.messages switch on every channel row', async () => {
  const location = await api('POST', '/locations', t.owner, { name: 'Harbour', timezone: 'Europe/Lisbon' });
  expect(location.status).toBe(201);
  const bridge = await keyWith('Chat bridge', ['communication:read', 'communication:write']);
  const reader = await keyWith('Chat archive', ['communication:read']);

  const created = await api('POST', '/channels', bridge, { kind: 'location_team', name: 'Harbour team', locationId: location.body.id });
  expect([created.status, created.body.memberCount]).toEqual([201, 0]);
  const channel = created.body.id as string;
  const first = await api('POST', `/channels/${channel}/messages`, bridge, { text: 'Doors at 7.' });
  const second = await api('POST', `/channels/${channel}/messages`, bridge, { text: 'Delivery at 9.' });
  expect([first.status, second.status]).toEqual([201, 201]);
  const read = await api('GET', `/channels/${channel}/messages`, reader);
  expect(read.body.data.map((m: { id: string }) => m.id)).toEqual([second.body.id, first.body.id]);
  expect((await api('GET', '/channels', reader)).body.data.map((c: { id: string }) => c.id)).toEqual([channel]);

  const rows: Array<[string, string, unknown]> = [
    ['GET', '/channels', undefined],
    ['POST', '/channels', { kind: 'group', name: 'G', memberIds: ['emp_x'] }],
    ['GET', `/channels/${channel}/messages`, undefined],
    ['POST', `/channels/${channel}/messages`, { text: 'Hi' }],
  ];
  for (const [method, path, body] of rows) {
    const r = await api(method, path, {}, body);
    expect([method, path, r.status, r.body.code]).toEqual([method, path, 401, 'unauthorized']);
  }
  // a read-only key may not write
  for (const [method, path, body] of rows.filter(([m]) => m === 'POST')) {
    const r = await api(method, path, reader, body);
    expect([method, path, r.status, r.body.code]).toEqual([method, path, 403, 'forbidden']);
  }

  expect((await api('POST', '/features/communication.messages:disable', t.owner)).status).toBe(200);
  for (const [method, path, body] of rows) {
    const r = await api(method, path, bridge, body);
    expect([method, path, r.status, r.body.code]).toEqual([method, path, 404, 'feature_disabled']);
  }
  // the parent switch stays on: announcements answer
  expect((await api('GET', '/announcements', bridge)).status).toBe(200);
  expect((await api('POST', '/features/communication.messages:enable', t.owner)).status).toBe(200);
  expect((await api('GET', `/channels/${channel}/messages`, bridge)).status).toBe(200);
}, 60_000);
