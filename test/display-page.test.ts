/**
 * The team-display page in a real browser (Debian's chromium driven by playwright-core, headless) on
 * the all-in-one runtime: pairing code shown → paired through the API → layout rendered → a metric
 * pushed through the API on screen within 2 s → the runtime restarted and the page back with the
 * current numbers → unpaired and back to a pairing code. Screenshots at 1920×1080 and 1280×720 go to
 * test-artifacts/display/ (ignored by git, kept by CI as artefacts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { freePort, generateInternalKeyPair } from '@bop/shared';
import { startAll, type Runtime } from '@bop/runtime';
import { http, OWNER, sql, startTestRuntime, type TestRuntime } from '@bop/test-support';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = path.resolve(__dirname, '..', 'test-artifacts', 'display');
const CODE = /^[A-Z2-9]{4}-[A-Z2-9]{4}$/;

/** The browser is part of the test set-up: installed from Debian's packages when missing (root, as in CI). */
function ensureChromium(): void {
  if (fs.existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0) throw new Error(`${CHROMIUM} is missing and this run is not root: install it with "apt-get install -y chromium".`);
  const r = spawnSync('sh', ['-c', 'apt-get install -y chromium || (apt-get update && apt-get install -y chromium)'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (r.status !== 0 || !fs.existsSync(CHROMIUM)) throw new Error(`could not install chromium (apt-get exited ${r.status}): the display page test needs ${CHROMIUM}.`);
}

let t: TestRuntime;
let rt: Runtime;
let port: number;
let browser: Browser;
let page: Page;
const env = () => ({ PORT: String(port), LOG_LEVEL: 'silent', RELAY_POLL_MS: '200', BUS_POLL_MS: '200' });

beforeAll(async () => {
  ensureChromium();
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  port = await freePort();
  t = await startTestRuntime(env());
  rt = t.rt;
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await rt?.close();
  await t?.db.drop();
}, 60_000);

const base = () => `http://127.0.0.1:${port}`;
const api = (method: string, p: string, body?: unknown, headers: Record<string, string> = t.owner) => http(base(), method, `/api/v1${p}`, { body, headers });

// page functions run in the browser: its globals are read off globalThis (the tests' TypeScript has no DOM library)
/** a pairing code on screen (another than `before`, when given) */
const shownCode = (before = '') =>
  page.waitForFunction(([re, old]) => {
    const { document } = globalThis as any;
    const code = document.getElementById('pairing-code')?.textContent ?? '';
    return new RegExp(re).test(code) && code !== old && !document.getElementById('pairing').hidden;
  }, [CODE.source, before], { timeout: 20_000 });
const metricShown = (name: string, value: string, timeout: number) =>
  page.waitForFunction(([n, v]) => (globalThis as any).document.querySelector(`[data-metric="${n}"] .value`)?.textContent === v, [name, value], { timeout });

async function screenshots(name: string): Promise<void> {
  for (const [w, h] of [[1920, 1080], [1280, 720]]) {
    await page.setViewportSize({ width: w, height: h });
    // nothing scrolls at either size
    const overflow = await page.evaluate(() => {
      const { document, innerWidth, innerHeight } = globalThis as any;
      return { x: document.documentElement.scrollWidth - innerWidth, y: document.documentElement.scrollHeight - innerHeight };
    });
    expect([name, w, overflow]).toEqual([name, w, { x: 0, y: 0 }]);
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}-${w}x${h}.png`) });
  }
  await page.setViewportSize({ width: 1920, height: 1080 });
}

it('pairs, shows the live layout, recovers after a restart and goes back to a code once unpaired', async () => {
  await page.goto(`${base()}/display/`);
  await shownCode();
  await screenshots('pairing');
  const code = (await page.textContent('#pairing-code'))!;

  const loc = await api('POST', '/locations', { name: 'Harbour', timezone: 'Europe/Paris', businessDayCutoff: '04:00' });
  expect(loc.status).toBe(201);
  const paired = await api('POST', '/display-screens', { pairingCode: code, locationId: loc.body.id, name: 'Harbour kitchen', config: { metrics: ['sales_today', 'covers', 'tickets_waiting'] } });
  expect(paired.status).toBe(201);
  await page.waitForSelector('#layout:not([hidden]) #status[data-state="live"]', { timeout: 20_000 });
  expect(await page.textContent('#screen-name')).toBe('Harbour kitchen');

  const integration = await api('POST', '/integrations', { manifest: { name: 'Harbour POS', version: '1.0.0', description: 'POS', scopes: ['reports:write'], webhooks: [] } });
  expect(integration.status).toBe(201);
  const pos = { authorization: `Bearer ${integration.body.apiKey}` };
  const push = async (metrics: Array<Record<string, string>>) => expect((await api('POST', '/display-metrics', { locationId: loc.body.id, metrics }, pos)).status).toBe(200);
  await push([{ name: 'sales_today', value: '1250.50', unit: 'USD', label: 'Sales today' }, { name: 'covers', value: '84', label: 'Covers' }, { name: 'tickets_waiting', value: '3', label: 'Tickets waiting' }]);
  await metricShown('covers', '84', 10_000);
  expect(await page.textContent('[data-metric="sales_today"] .value')).toBe('1,250.50');

  // a push through the API is on screen within 2 s
  await push([{ name: 'covers', value: '91', label: 'Covers' }]);
  await metricShown('covers', '91', 2_000);

  // a shout-out and an announcement for the location are on screen within 2 s too
  const emp = await api('POST', '/employees', { legalFirstName: 'Maya', legalLastName: 'Lopez', homeLocationId: loc.body.id, hireDate: '2026-01-05' });
  expect(emp.status).toBe(201);
  expect((await api('POST', '/recognitions', { employeeId: emp.body.id, message: 'Saved the Friday rush on the grill.' })).status).toBe(201);
  await page.waitForSelector(`#leaderboard-list li[data-employee="${emp.body.id}"]`, { timeout: 2_000 });
  const ann = await api('POST', '/announcements', { title: 'Fire drill at 3 pm', body: 'Meet at the back door.', audience: { locationIds: [loc.body.id] } });
  expect((await api('POST', `/announcements/${ann.body.id}:publish`)).status).toBe(200);
  await page.waitForSelector(`#announcement-current[data-announcement="${ann.body.id}"]`, { timeout: 2_000 });
  await screenshots('layout');

  // the runtime goes away (its open streams end at once, not after the shutdown grace): the page says so
  const closing = Date.now();
  await rt.close();
  const closeMs = Date.now() - closing;
  await page.waitForSelector('#status[data-state="stale"]', { timeout: 20_000 });
  expect(await page.textContent('[data-metric="covers"] .value')).toBe('91');
  await screenshots('stale');
  fs.writeFileSync(path.join(ARTIFACTS, 'restart.txt'), `runtime closed in ${closeMs} ms with a screen streaming\n`);
  // numbers changed while the page could not hear of it: no live event will tell; the snapshot on reconnect does
  await sql(t.db.url, `update communication.display_metrics set value = 97 where location_id = $1 and name = 'covers'`, [loc.body.id]);
  const keys = await generateInternalKeyPair();
  rt = await startAll({ ...env(), DATABASE_URL: t.db.url, SERVICE_PORTS: 'auto', INTERNAL_JWT_PRIVATE_KEY: keys.privateKeyPem, INTERNAL_JWT_PUBLIC_KEY: keys.publicKeyPem, BOOTSTRAP_ADMIN_EMAIL: OWNER.email, BOOTSTRAP_ADMIN_PASSWORD: OWNER.password });
  await page.waitForSelector('#status[data-state="live"]', { timeout: 60_000 });
  await metricShown('covers', '97', 5_000);
  await push([{ name: 'covers', value: '98', label: 'Covers' }]);
  await metricShown('covers', '98', 2_000);

  // waking up (the screen was off): a fresh snapshot, with what changed unannounced meanwhile
  await sql(t.db.url, `update communication.display_metrics set value = 99 where location_id = $1 and name = 'covers'`, [loc.body.id]);
  await page.evaluate(() => (globalThis as any).document.dispatchEvent(new (globalThis as any).Event('visibilitychange')));
  await metricShown('covers', '99', 5_000);
  expect(await page.getAttribute('#status', 'data-state')).toBe('live');

  // unpaired: the open stream closes and the page shows a new code
  const owner = await t.signIn(OWNER.email, OWNER.password);
  expect((await api('DELETE', `/display-screens/${paired.body.id}`, undefined, owner)).status).toBe(200);
  await shownCode(code);
  expect(await page.evaluate(() => (globalThis as any).localStorage.getItem('bop.display.screenToken'))).toBeNull();

  // the page's calls follow the displays feature switch
  expect((await api('POST', '/features/displays:disable', undefined, owner)).status).toBe(200);
  const off = await http(base(), 'POST', '/display/api/pairings', { body: {} });
  expect([off.status, off.body.code]).toEqual([404, 'feature_disabled']);
  expect((await api('POST', '/features/displays:enable', undefined, owner)).status).toBe(200);

  // new codes are rate-limited per address (DISPLAY_PAIRINGS_PER_MIN, 10 by default; the page took some already)
  const answers: number[] = [];
  for (let i = 0; i < 11; i += 1) answers.push((await http(base(), 'POST', '/display/api/pairings', { body: {} })).status);
  expect(answers).toContain(429);
  const limited = await http(base(), 'POST', '/display/api/pairings', { body: {} });
  expect([limited.status, limited.body.code, Number(limited.headers.get('retry-after')) > 0]).toEqual([429, 'rate_limited', true]);
}, 300_000);
