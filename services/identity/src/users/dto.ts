import type { z } from 'zod';
import type { Operations } from '@bop/contracts';
import type { User, Assignment } from './entities';
import type { Role } from '../roles/entities';
import type { ApiKey } from '../api-keys/entities';
import type { Invitation } from '../invitations/entities';
import type { CompanySettings } from '../company-settings/entities';
import { invitationStatus } from '../invitations/invitation-status';

type Response<K extends keyof Operations> = Operations[K] extends { response: infer S extends z.ZodType } ? z.output<S> : never;

export type UserView = Response<'GET /users/{id}'>;
export type RoleView = Response<'PATCH /roles/{id}'>;
export type ApiKeyView = Omit<Response<'POST /auth/api-keys'>, 'key'>;
export type InvitationView = Response<'DELETE /invitations/{id}'>;
export type SettingsView = Response<'GET /company-settings'>;
export type FeatureView = Response<'POST /features/{key}:enable'>;
export type MeView = Response<'GET /me'>;
export type SessionView = Response<'GET /auth/session'>;

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function userView(user: User, assignments: Assignment[], rolesById: ReadonlyMap<string, Role>): UserView {
  return {
    id: user.id,
    email: user.email,
    name: user.name ?? null,
    locale: user.locale,
    status: user.status,
    employeeId: user.employeeId ?? null,
    twoFactor: { enabled: !!user.totpSecret, enrolledAt: isoOrNull(user.mfaEnrolledAt) },
    assignments: assignments.map((a) => ({ id: a.id, roleId: a.roleId, roleName: rolesById.get(a.roleId)?.name ?? '', reach: a.reach })),
    lastSignInAt: isoOrNull(user.lastSignInAt),
    createdAt: iso(user.createdAt),
    updatedAt: iso(user.updatedAt),
    version: user.version,
  };
}

export function roleView(role: Role): RoleView {
  return {
    id: role.id,
    key: role.key ?? null,
    name: role.name,
    description: role.description ?? null,
    permissions: [...role.permissions],
    builtIn: role.builtIn,
    status: role.status,
    createdAt: iso(role.createdAt),
    updatedAt: iso(role.updatedAt),
    version: role.version,
  };
}

export function apiKeyView(key: ApiKey): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    userId: key.userId ?? '',
    createdAt: iso(key.createdAt),
    expiresAt: isoOrNull(key.expiresAt),
    lastUsedAt: isoOrNull(key.lastUsedAt),
  };
}

export function invitationView(inv: Invitation, now = new Date()): InvitationView {
  return {
    id: inv.id,
    email: inv.email,
    name: inv.name ?? null,
    assignments: inv.assignments,
    employeeId: inv.employeeId ?? null,
    status: invitationStatus(inv.status, inv.expiresAt, now),
    expiresAt: iso(inv.expiresAt),
    invitedBy: inv.invitedBy ?? null,
    acceptedUserId: inv.acceptedUserId ?? null,
    createdAt: iso(inv.createdAt),
    updatedAt: iso(inv.updatedAt),
  };
}

export function settingsView(s: CompanySettings): SettingsView {
  return {
    name: s.name,
    defaultCurrency: s.defaultCurrency,
    weekStart: s.weekStart as SettingsView['weekStart'],
    payPeriodFrequency: s.payPeriodFrequency as SettingsView['payPeriodFrequency'],
    payPeriodAnchorDate: s.payPeriodAnchorDate,
    purchaseOrderApprovalThreshold: s.purchaseOrderApprovalThreshold,
    requireTwoFactor: s.requireTwoFactor,
    invoiceMatchTolerances: {
      quantityAbsolute: s.invoiceMatchQuantityAbsolute ?? null,
      quantityPercent: s.invoiceMatchQuantityPercent ?? null,
      priceAbsolute: s.invoiceMatchPriceAbsolute ?? null,
      pricePercent: s.invoiceMatchPricePercent ?? null,
    },
    version: s.version,
    updatedAt: iso(s.updatedAt),
  };
}
