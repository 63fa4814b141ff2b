import { permissionNames } from '@bop/contracts';
import { builtInRoles, effectivePermissions, isOwnerGrant } from '../src/roles/permissions';
import { blockingAncestor, featureStates } from '../src/features/feature-states';
import { cacheSeconds, idleExpiresAt, sessionStatus, shouldTouch } from '../src/sessions/lifetime';
import { invitationStatus } from '../src/invitations/invitation-status';
import { newPasswordProblem, passwordProblem } from '../src/users/passwords';
import { normalizeRecoveryCode } from '../src/mfa/recovery-codes';

describe('effectivePermissions', () => {
  test('unions reaches per permission; everyone wins; unsupported reach types are dropped', () => {
    const perms = effectivePermissions([
      { permissions: ['sales.read', 'users.manage'], reach: { type: 'locations', ids: ['loc_b', 'loc_a'] } },
      { permissions: ['sales.read'], reach: { type: 'locations', ids: ['loc_a', 'loc_c'] } },
      { permissions: ['schedules.read'], reach: { type: 'employee_set', ids: ['emp_1'] } },
      { permissions: ['schedules.read'], reach: { type: 'everyone' } },
    ]);
    expect(perms).toEqual({
      'sales.read': [{ type: 'locations', ids: ['loc_a', 'loc_b', 'loc_c'] }],
      'schedules.read': [{ type: 'everyone' }],
    });
  });

  test('built-in roles', () => {
    const [owner, manager, employee] = builtInRoles();
    expect(owner.permissions).toEqual(permissionNames);
    expect(manager.permissions).not.toContain('roles.manage');
    expect(employee.permissions).not.toContain('api_keys.personal');
    expect(isOwnerGrant('owner', { type: 'everyone' })).toBe(true);
    expect(isOwnerGrant('owner', { type: 'locations', ids: ['x'] })).toBe(false);
  });
});

describe('features', () => {
  test('effective needs every ancestor; a child keeps its own state under a parent that is off; blocking ancestor', () => {
    const states = featureStates(new Map([['sales', false]]));
    expect(states.find((f) => f.key === 'sales.invoices')).toMatchObject({ enabled: true, effective: false });
    const kept = featureStates(new Map([['sales', false], ['sales.invoices', false]]));
    expect(kept.find((f) => f.key === 'sales.online_orders')).toMatchObject({ enabled: true, effective: false });
    expect(kept.find((f) => f.key === 'sales.invoices')).toMatchObject({ enabled: false, effective: false });
    expect(blockingAncestor('sales.invoices', new Map([['sales', false]]))).toBe('sales');
    expect(blockingAncestor('sales.invoices', new Map())).toBeNull();
  });
});

describe('sessions', () => {
  const now = new Date('2026-03-01T12:00:00Z');
  const at = (min: number) => new Date(now.getTime() + min * 60_000);
  test('status: idle, absolute, ended', () => {
    expect(sessionStatus({ lastSeenAt: at(-10), expiresAt: at(60), endedAt: null }, now, 30 * 60_000)).toBe('active');
    expect(sessionStatus({ lastSeenAt: at(-31), expiresAt: at(60), endedAt: null }, now, 30 * 60_000)).toBe('idle_expired');
    expect(sessionStatus({ lastSeenAt: at(-1), expiresAt: at(0), endedAt: null }, now, 30 * 60_000)).toBe('absolute_expired');
    expect(sessionStatus({ lastSeenAt: at(-1), expiresAt: at(60), endedAt: at(-1) }, now, 30 * 60_000)).toBe('ended');
    expect(idleExpiresAt({ lastSeenAt: at(0), expiresAt: at(10) }, 30 * 60_000)).toEqual(at(10));
  });
  test('touch at most once a minute; cache capped by the earliest end', () => {
    expect(shouldTouch(at(-0.5), now)).toBe(false);
    expect(shouldTouch(at(-1), now)).toBe(true);
    expect(shouldTouch(at(-0.5), now, 60_000)).toBe(true);
    expect(cacheSeconds(now, 30, at(10))).toBe(30);
    expect(cacheSeconds(now, 30, new Date(now.getTime() + 5_500), null)).toBe(5);
    expect(cacheSeconds(now, 30, at(-1))).toBe(0);
  });
});

test('invitation status, password policy, recovery code normalisation', () => {
  expect(invitationStatus('pending', new Date(0), new Date())).toBe('expired');
  expect(invitationStatus('revoked', new Date(0), new Date())).toBe('revoked');
  expect(passwordProblem('short')).toMatch(/12/);
  expect(passwordProblem('long-enough-password')).toBeNull();
  expect(passwordProblem(' '.repeat(12))).toMatch(/blank/);
  expect(newPasswordProblem('long-enough-password', 'short')).toMatch(/12/);
  expect(newPasswordProblem('long-enough-password', 'long-enough-password')).toMatch(/different/);
  expect(newPasswordProblem('long-enough-password', 'another-long-password')).toBeNull();
  expect(normalizeRecoveryCode(' AbCde-fGh2k ')).toBe('abcdefgh2k');
});
