import { IntegrationManifest } from '@bop/contracts';
import { applyConfigPatch, configErrors, keepDeclared, maskConfig, maskSecret, missingConfig, sameValues } from '../src/integrations/config-values';
import { deriveHealth, silentAfter } from '../src/health/derive-health';
import { keyStatus } from '../src/keys/key-status';
import { levelRank, levelsAtOrAbove } from '../src/logs/levels';
import { manifestErrors, sameScopes, scopesNarrowed, subscriptionProblem } from '../src/integrations/manifest';

const manifest = (over: Record<string, unknown> = {}) =>
  IntegrationManifest.parse({ name: 'POS bridge', version: '1.2.0', description: 'Sends sales', scopes: ['sales:write', 'organization:read'], ...over });

describe('manifest rules', () => {
  test('a valid manifest has no errors; defaults fill webhooks and config', () => {
    const m = manifest({ webhooks: [{ url: 'https://pos.example.com/hooks', events: ['location.created', 'sales_order.created'] }] });
    expect(m.config).toEqual([]);
    expect(manifestErrors(m, 'manifest')).toEqual([]);
  });

  test('unknown and repeated scopes, uncovered and unknown events, ping, repeated urls and keys', () => {
    const m = manifest({
      scopes: ['sales:write', 'payroll:read', 'sales:write'],
      webhooks: [
        { url: 'https://a.example.com', events: ['sales_order.created', 'employee.created', 'nope.happened', 'webhook.ping', 'sales_order.created'] },
        { url: 'https://a.example.com', events: ['*', 'location.created'] },
      ],
      config: [
        { key: 'token', secret: true },
        { key: 'token', secret: false },
      ],
    });
    expect(manifestErrors(m, 'manifest')).toEqual([
      { path: 'manifest.scopes[1]', message: 'Not a known scope.' },
      { path: 'manifest.scopes[2]', message: 'Listed twice.' },
      { path: 'manifest.webhooks[0].events[1]', message: expect.stringContaining('people:read') },
      { path: 'manifest.webhooks[0].events[2]', message: 'Not a known event type.' },
      { path: 'manifest.webhooks[0].events[3]', message: expect.stringContaining('cannot be subscribed to') },
      { path: 'manifest.webhooks[0].events[4]', message: 'Listed twice.' },
      { path: 'manifest.webhooks[1].url', message: expect.stringContaining('Listed twice') },
      { path: 'manifest.webhooks[1].events', message: expect.stringContaining('stands alone') },
      { path: 'manifest.config[1].key', message: 'Declared twice.' },
    ]);
  });

  test('subscribing follows the scopes (spec: Events → Subscribing)', () => {
    const has = (...s: string[]) => new Set(s);
    expect(subscriptionProblem('location.created', has('organization:read'))).toBeNull();
    expect(subscriptionProblem('location.created', has('organization:write'))).not.toBeNull();
    expect(subscriptionProblem('attachment.uploaded', has('attachments:read'))).toBeNull();
    expect(subscriptionProblem('employee.created', has('people:write'))).toBeNull();
    expect(subscriptionProblem('announcement.published', has('notifications:deliver'))).toBeNull();
    expect(subscriptionProblem('recognition.posted', has('communication:read'))).toBeNull();
    expect(subscriptionProblem('stock.level_changed', has('sales:read'))).toMatch(/inventory:read/);
    // planned events may be named; they are delivered once available
    expect(subscriptionProblem('punch.exception', has('time:read'))).toBeNull();
  });

  test('"*" alone is accepted; zod checks shape, version and URL', () => {
    expect(manifestErrors(manifest({ webhooks: [{ url: 'https://x.example.com', events: ['*'] }] }))).toEqual([]);
    const bad = IntegrationManifest.safeParse({ name: '', version: 'latest', description: 'x', scopes: [], webhooks: [{ url: 'ftp://x', events: [] }], colour: 1 });
    expect(bad.success).toBe(false);
    const paths = bad.error!.issues.map((i) => i.path.join('.')).sort();
    expect(paths).toEqual(['', 'name', 'version', 'webhooks.0.events', 'webhooks.0.url']);
    for (const v of ['1', '1.2', '1.2.3', '1.2.3-beta.1+build.5']) expect(IntegrationManifest.shape.version.safeParse(v).success).toBe(true);
  });

  test('scope comparisons', () => {
    expect(sameScopes(['a', 'b'], ['b', 'a'])).toBe(true);
    expect(sameScopes(['a'], ['a', 'b'])).toBe(false);
    expect(scopesNarrowed(['a', 'b'], ['a', 'b', 'c'])).toBe(false);
    expect(scopesNarrowed(['a', 'b'], ['a', 'c'])).toBe(true);
  });
});

describe('config', () => {
  const fields = [
    { key: 'apiToken', secret: true, required: true },
    { key: 'storeCode', secret: false },
    { key: 'pin', secret: true },
  ];

  test('secrets are masked: •••• plus the last 4 only when at least 12 long', () => {
    expect(maskSecret('sk_live_1234567890abcd')).toBe('••••abcd');
    expect(maskSecret('short')).toBe('••••');
    expect(maskSecret(123456789012345)).toBe('••••2345');
    expect(maskConfig(fields, { apiToken: 'sk_live_1234567890abcd', storeCode: 'S-1', pin: '1234' })).toEqual({ apiToken: '••••abcd', storeCode: 'S-1', pin: '••••' });
  });

  test('registration: undeclared keys and missing required ones', () => {
    expect(configErrors(fields, { apiToken: 'x', storeCode: 'y' })).toEqual([]);
    expect(configErrors(fields, { colour: 'red' })).toEqual([
      { path: 'config.colour', message: 'Not declared in the manifest.' },
      { path: 'config.apiToken', message: 'Required by the manifest.' },
    ]);
    expect(missingConfig(fields, { apiToken: '' })).toEqual(['apiToken']);
  });

  test('patch merges, null removes, required stays, a masked secret sent back changes nothing', () => {
    const current = { apiToken: 'sk_live_1234567890abcd', storeCode: 'S-1', pin: '1234' };
    expect(applyConfigPatch(fields, current, { storeCode: null, pin: '9999' })).toEqual({ values: { apiToken: 'sk_live_1234567890abcd', pin: '9999' }, errors: [] });
    expect(applyConfigPatch(fields, current, { apiToken: '••••abcd', storeCode: 'S-2' }).values).toEqual({ ...current, storeCode: 'S-2' });
    expect(applyConfigPatch(fields, current, { apiToken: null, colour: 'red', storeCode: 'ok' }).errors).toEqual([
      { path: 'apiToken', message: expect.stringContaining('cannot be removed') },
      { path: 'colour', message: 'Not declared in the manifest.' },
    ]);
    expect(applyConfigPatch(fields, current, { apiToken: '' }).errors).toEqual([{ path: 'apiToken', message: expect.stringContaining('cannot be empty') }]);
    expect(applyConfigPatch(fields, current, { storeCode: 'gone' }).values.storeCode).toBe('gone');
  });

  test('keepDeclared drops values of keys no longer declared; sameValues compares', () => {
    expect(keepDeclared([{ key: 'a', secret: false }], { a: 1, b: 2 })).toEqual({ a: 1 });
    expect(sameValues({ a: 1, b: 'x' }, { b: 'x', a: 1 })).toBe(true);
    expect(sameValues({ a: 1 }, { a: 1, b: 2 })).toBe(false);
  });
});

describe('health from heartbeats', () => {
  const last = new Date('2026-11-21T10:00:00Z');
  const at = (s: number) => new Date(last.getTime() + s * 1000);

  test('unknown before any heartbeat; the reported value while on time; silent after three intervals', () => {
    expect(deriveHealth({ reported: null, lastHeartbeatAt: null, intervalSeconds: 300, now: at(0) })).toBe('unknown');
    expect(deriveHealth({ reported: 'warning', lastHeartbeatAt: last, intervalSeconds: 300, now: at(899) })).toBe('warning');
    expect(deriveHealth({ reported: 'ok', lastHeartbeatAt: last, intervalSeconds: 300, now: at(900) })).toBe('ok');
    expect(deriveHealth({ reported: 'error', lastHeartbeatAt: last, intervalSeconds: 300, now: at(901) })).toBe('silent');
    expect(deriveHealth({ reported: 'ok', lastHeartbeatAt: last, intervalSeconds: 60, now: at(181) })).toBe('silent');
    expect(silentAfter(last, 300).toISOString()).toBe('2026-11-21T10:15:00.000Z');
  });
});

describe('keys and logs', () => {
  const now = new Date('2026-11-21T10:00:00Z');
  test('key status: current, grace until revokedAt, revoked, expired', () => {
    expect(keyStatus({ revokedAt: null, expiresAt: null }, now)).toBe('current');
    expect(keyStatus({ revokedAt: new Date(now.getTime() + 60_000), expiresAt: null }, now)).toBe('grace');
    expect(keyStatus({ revokedAt: now, expiresAt: null }, now)).toBe('revoked');
    expect(keyStatus({ revokedAt: null, expiresAt: now }, now)).toBe('revoked');
  });

  test('the level filter means that level and above', () => {
    expect(levelsAtOrAbove('warning')).toEqual(['warning', 'error']);
    expect(levelsAtOrAbove('debug')).toEqual(['debug', 'info', 'warning', 'error']);
    expect(levelRank('error')).toBeGreaterThan(levelRank('info'));
  });
});
