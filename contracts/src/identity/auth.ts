import { z } from '../zod';
import { ListQuery, Timestamp } from '../common';
import { Reach } from './reach';
import { Email, User } from './users';

export const SignIn = z.strictObject({
  email: Email,
  password: z.string().min(1).max(1024),
});

/** A password a person chooses; the identity service applies the rules (at least 12 characters, not blank). */
export const NewPassword = z.string().max(1024).openapi({ description: 'at least 12 characters, not blank' });

export const PasswordChange = z.strictObject({
  currentPassword: z.string().min(1).max(1024),
  newPassword: NewPassword,
});

export const SignInMfa = z.strictObject({
  mfaToken: z.string().min(1).max(200),
  code: z.string().trim().min(6).max(64).openapi({ description: 'a TOTP code or an unused recovery code' }),
});

export const SignInResult = z
  .object({
    token: z.string().openapi({ description: 'session token; send as `Authorization: Bearer <token>`' }),
    expiresAt: Timestamp.openapi({ description: 'absolute end of the session; it also ends after the idle time' }),
    user: User,
  })
  .openapi('SignInResult');

export const MfaEnrollment = z
  .object({ secret: z.string(), otpauthUrl: z.string() })
  .openapi('MfaEnrollment');

export const MfaEnrollmentConfirm = z.strictObject({
  code: z.string().trim().regex(/^\d{6}$/, 'A 6-digit code from the authenticator app.'),
});

export const MfaRecoveryCodes = z.object({ recoveryCodes: z.array(z.string()) }).openapi('MfaRecoveryCodes');

export const ApiKey = z
  .object({
    id: z.string().openapi({ example: 'key_01JD3Z6C8X0Q5Y6T9M2N4P7R1S' }),
    name: z.string(),
    prefix: z.string().openapi({ example: 'pk_live_Ab3d' }),
    userId: z.string(),
    createdAt: Timestamp,
    expiresAt: Timestamp.nullable(),
    lastUsedAt: Timestamp.nullable(),
  })
  .openapi('ApiKey');

export const ApiKeyCreated = ApiKey.extend({
  key: z.string().openapi({ description: 'the key value, shown once' }),
}).openapi('ApiKeyCreated');

export const ApiKeyCreate = z.strictObject({
  name: z.string().trim().min(1).max(100),
  expiresAt: Timestamp.optional(),
});

export const ApiKeyListQuery = ListQuery.extend({ userId: z.string().min(1).max(64).optional() });

export const Me = z
  .object({
    kind: z.enum(['user', 'integration', 'system']),
    via: z.enum(['session', 'personal_key', 'integration_key', 'internal']),
    user: z.union([User, z.null()]),
    key: z.object({ id: z.string(), prefix: z.string(), name: z.string(), expiresAt: Timestamp.nullable() }).nullable(),
    session: z.object({ id: z.string(), expiresAt: Timestamp, idleExpiresAt: Timestamp }).nullable(),
    integrationId: z.string().nullable(),
    scopes: z.array(z.string()).nullable(),
  })
  .openapi('Me');

export const SessionInfo = z
  .object({
    user: User,
    roles: z.array(z.object({ id: z.string(), key: z.string().nullable(), name: z.string() })),
    permissions: z.record(z.string(), z.array(Reach)),
    assignments: User.shape.assignments,
    mfaEnrollmentRequired: z.boolean(),
    session: z.object({ id: z.string(), expiresAt: Timestamp, idleExpiresAt: Timestamp }).nullable(),
  })
  .openapi('Session');
