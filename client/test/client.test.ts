/**
 * The typed client against the real runtime (issue 41, item 4): typed create and read, every page of
 * a list, a 503 retried after its Retry-After (a service really down, then started again), an
 * idempotent POST repeated with the same key, and a signature the webhooks service made for a real
 * delivery to a local Receiver. The README's example runs here as written.
 */
import { equipmentService } from '@svc/equipment';
import { startService, type RunningService } from '@bop/shared';
import { eventually, Receiver, startTestRuntime, type TestRuntime } from '@bop/test-support';
import { createClient, paginate, retryAfterMs, verifyWebhookSignature, type Api } from '@bop/client';
import { exampleTypeErrors, readmeExample } from './readme';

let t: TestRuntime;
let api: Api;
let token: string;
let receiver: Receiver;
let restarted: RunningService<any> | undefined;

/** A fetch that records what the client sent (method, path, Idempotency-Key) and the statuses it got. */
function recording() {
  const sent: Array<{ method: string; path: string; key: string | null; status?: number }> = [];
  const fetchFn: typeof fetch = async (input, init) => {
    const req = new Request(input, init);
    const entry: (typeof sent)[number] = { method: req.method, path: new URL(req.url).pathname, key: req.headers.get('idempotency-key') };
    sent.push(entry);
    const res = await fetch(req);
    entry.status = res.status;
    return res;
  };
  return { sent, fetchFn };
}

beforeAll(async () => {
  // all services on the main thread, so that one can be stopped and started again
  t = await startTestRuntime({ RUNTIME_THREADS: 'off', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_MS: '100' });
  token = t.owner.authorization.slice('Bearer '.length);
  api = createClient({ baseUrl: `${t.rt.url}/api/v1`, token });
  receiver = await Receiver.start();
});

afterAll(async () => {
  await receiver?.close();
  await restarted?.close();
  await t?.close();
});

describe('typed calls', () => {
  it('creates and reads a location; a refusal comes back as a typed problem', async () => {
    const created = await api.postLocations({ body: { name: 'Harbour St', timezone: 'Europe/London' } });
    expect(created.response.status).toBe(201);
    const id = created.data!.id;
    expect(id).toMatch(/^loc_/);
    const read = await api.getLocationsId({ path: { id } });
    expect(read.data).toMatchObject({ id, name: 'Harbour St', timezone: 'Europe/London', businessDayCutoff: '04:00' });

    const refused = await api.postLocations({ body: { name: 'No zone', timezone: 'Mars/Olympus' } });
    expect(refused.response.status).toBe(422);
    expect(refused.error).toMatchObject({ code: 'validation_error', errors: [expect.objectContaining({ path: 'timezone' })] });

    const anonymous = await createClient({ baseUrl: `${t.rt.url}/api/v1` }).getLocations();
    expect(anonymous.response.status).toBe(401);
    expect(anonymous.error).toMatchObject({ code: 'unauthorized' });
  });

  it('iterates every page of a list by its cursor', async () => {
    const names = ['Page A', 'Page B', 'Page C', 'Page D', 'Page E'];
    const ids = [];
    for (const name of names) ids.push((await api.postLocations({ body: { name, timezone: 'Europe/Oslo' } })).data!.id);
    const { sent, fetchFn } = recording();
    const paged = createClient({ baseUrl: `${t.rt.url}/api/v1`, token, fetch: fetchFn });
    const seen: string[] = [];
    for await (const location of paginate(paged.getLocations, { query: { limit: 2 } })) seen.push(location.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining(ids));
    // ≥ 6 locations at 2 a page: at least three pages, the last with nextCursor null
    expect(sent.length).toBe(Math.ceil(seen.length / 2));
    expect(sent.length).toBeGreaterThanOrEqual(3);
  });
});

describe('idempotency keys', () => {
  it('sends a key with every POST; the same key again replays the first answer', async () => {
    const { sent, fetchFn } = recording();
    const c = createClient({ baseUrl: `${t.rt.url}/api/v1`, token, fetch: fetchFn });
    await c.postLocations({ body: { name: 'Keyed', timezone: 'Europe/Oslo' } });
    expect(sent[0]).toMatchObject({ method: 'POST', key: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 201 });

    const headers = { 'Idempotency-Key': `client-test-${Date.now()}` };
    const first = await c.postLocations({ body: { name: 'Once', timezone: 'Europe/Oslo' }, headers });
    const again = await c.postLocations({ body: { name: 'Once', timezone: 'Europe/Oslo' }, headers });
    expect(first.response.status).toBe(201);
    expect(again.response.status).toBe(201);
    expect(again.data!.id).toBe(first.data!.id);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    const other = await c.postLocations({ body: { name: 'Twice', timezone: 'Europe/Oslo' }, headers });
    expect(other.response.status).toBe(409);
    expect(other.error).toMatchObject({ code: 'conflict' });
    const named = [];
    for await (const l of paginate(api.getLocations, { query: { limit: 100 } })) if (l.name === 'Once') named.push(l.id);
    expect(named).toEqual([first.data!.id]);
  });
});

describe('retries', () => {
  it('retries a 503 after its Retry-After with the same Idempotency-Key, and gives up after the attempts allowed', async () => {
    const location = (await api.postLocations({ body: { name: 'Workshop', timezone: 'Europe/Oslo' } })).data!;
    const equipment = t.rt.services.find((s) => s.name === 'equipment')!;
    const { port } = equipment;
    await equipment.close();

    // down: every attempt is a 503 service_unavailable; the client waits each Retry-After, then returns the last
    const waits: number[] = [];
    const down = recording();
    const bounded = createClient({ baseUrl: `${t.rt.url}/api/v1`, token, fetch: down.fetchFn, retry: { attempts: 3, sleep: async (ms) => void waits.push(ms) } });
    const refused = await bounded.getAssets();
    expect(refused.response.status).toBe(503);
    expect(refused.error).toMatchObject({ code: 'service_unavailable' });
    const retryAfter = retryAfterMs(refused.response.headers.get('retry-after'))!;
    expect(retryAfter).toBeGreaterThan(0);
    expect(down.sent.map((s) => s.status)).toEqual([503, 503, 503]);
    expect(waits).toEqual([retryAfter, retryAfter]);

    // during the wait the service starts again on its port: the retry is answered
    const back = recording();
    const retrying = createClient({
      baseUrl: `${t.rt.url}/api/v1`,
      token,
      fetch: back.fetchFn,
      retry: {
        sleep: async (ms) => {
          expect(ms).toBe(retryAfter);
          restarted ??= await startService(equipmentService, {
            databaseUrl: t.db.url,
            internalPublicKeyPem: t.keys.publicKeyPem,
            internalPrivateKeyPem: t.keys.privateKeyPem,
            serviceUrls: Object.fromEntries(t.rt.services.map((s) => [s.name, s.url])),
            host: '127.0.0.1',
            port,
            env: { LOG_LEVEL: 'silent' },
          });
        },
      },
    });
    const asset = await retrying.postAssets({ body: { name: 'Walk-in freezer', locationId: location.id } });
    expect(asset.response.status).toBe(201);
    expect(back.sent.map((s) => s.status)).toEqual([503, 201]);
    expect(back.sent[0].key).toBeTruthy();
    expect(back.sent[1].key).toBe(back.sent[0].key);
    expect((await api.getAssetsId({ path: { id: asset.data!.id } })).data).toMatchObject({ name: 'Walk-in freezer', locationId: location.id });
  });

  it('does not retry other refusals', async () => {
    const { sent, fetchFn } = recording();
    const c = createClient({ baseUrl: `${t.rt.url}/api/v1`, token, fetch: fetchFn, retry: { sleep: async () => undefined } });
    expect((await c.getLocationsId({ path: { id: 'loc_nothere' } })).response.status).toBe(404);
    expect(sent).toHaveLength(1);
  });
});

describe('webhook signatures', () => {
  it('verifies the signature of a real delivery, and refuses a changed body, another secret or an old timestamp', async () => {
    const endpoint = await api.postWebhookEndpoints({ body: { url: receiver.url, events: ['location.created'], description: 'client test' } });
    expect(endpoint.response.status).toBe(201);
    const secret = (endpoint.data as { secret: string }).secret;
    const created = (await api.postLocations({ body: { name: 'Signed', timezone: 'Europe/Oslo' } })).data!;
    const got = await eventually(async () => receiver.received.find((r) => r.raw.includes(created.id)), 30_000);

    expect(verifyWebhookSignature(secret, got.headers, got.raw)).toBe(true);
    expect(verifyWebhookSignature(secret, new Headers(got.headers as Record<string, string>), Buffer.from(got.raw))).toBe(true);
    expect(verifyWebhookSignature(secret, got.headers, got.raw.replace('Signed', 'Signet'))).toBe(false);
    expect(verifyWebhookSignature(`${secret}x`, got.headers, got.raw)).toBe(false);
    const t0 = Number(/t=(\d+)/.exec(String(got.headers['service-signature']))![1]);
    expect(verifyWebhookSignature(secret, got.headers, got.raw, { now: new Date((t0 + 301) * 1000) })).toBe(false);
    expect(verifyWebhookSignature(secret, got.headers, got.raw, { now: new Date((t0 + 299) * 1000) })).toBe(true);
    expect(verifyWebhookSignature(secret, {}, got.raw)).toBe(false);

    // the README's receiver check, on the same delivery
    const example = await readmeExample({ baseUrl: `${t.rt.url}/api/v1`, token, webhookSecret: secret });
    expect(example.genuine(got.headers, got.raw)).toBe(true);
  });
});

describe('README example', () => {
  it('type-checks against the built client', () => {
    expect(exampleTypeErrors()).toEqual([]);
  });

  it('runs as written: creates a location and lists it', async () => {
    const example = await readmeExample({ baseUrl: `${t.rt.url}/api/v1`, token, webhookSecret: 'whsec_unused' });
    expect(example.output[0]).toMatch(/^created loc_/);
    const id = example.output[0].split(' ')[1];
    expect(example.output).toContain(`${id} Harbour St`);
  });
});
