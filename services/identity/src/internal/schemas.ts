import { z } from 'zod';
import { PrincipalShape, Timestamp, scopes } from '@bop/contracts';

/** Internal (gateway / integrations service → identity) request and response schemas; not in the public catalogue. */
export const PrincipalSchema = PrincipalShape.extend({
  kind: z.enum(['user', 'integration', 'system']),
  via: z.enum(['session', 'personal_key', 'integration_key', 'internal']),
  id: z.string(),
});

export const AuthenticateBody = z.strictObject({ token: z.string().min(1).max(500) });
export const AuthenticateResult = z.object({
  principal: PrincipalSchema,
  cacheSeconds: z.number().int().min(0),
  mfaEnrollmentRequired: z.boolean(),
});

export const InternalFeatures = z.object({
  features: z.array(z.object({ key: z.string(), enabled: z.boolean(), effective: z.boolean() })),
});

const knownScopes = new Set(scopes);
export const IntegrationKeyCreate = z.strictObject({
  integrationId: z.string().min(1).max(64),
  scopes: z.array(z.string().refine((s) => knownScopes.has(s), { message: 'Not a known scope.' })).max(100),
  expiresAt: Timestamp.optional(),
  name: z.string().min(1).max(100).optional(),
});
export const IntegrationKeyCreated = z.object({
  id: z.string(),
  key: z.string(),
  prefix: z.string(),
  integrationId: z.string(),
  scopes: z.array(z.string()),
  expiresAt: Timestamp.nullable(),
});

export const IntegrationKeyRevoke = z.strictObject({
  integrationId: z.string().min(1).max(64),
  keyId: z.string().min(1).max(64).optional(),
  /** keys left alone when revoking all (e.g. the key just minted by a rotation) */
  exceptKeyIds: z.array(z.string().min(1).max(64)).max(100).optional(),
  graceMinutes: z.number().int().min(0).max(60 * 24 * 30).optional(),
});
export const IntegrationKeyRevokeResult = z.object({
  revoked: z.array(z.object({ id: z.string(), revokedAt: Timestamp })),
});

export const IntegrationState = z.object({ integrationId: z.string(), paused: z.boolean() });

export const EmailLogQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  to: z.string().optional(),
});
export const EmailLogEntry = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  createdAt: Timestamp,
  status: z.enum(['pending', 'sent', 'logged', 'failed']),
  attempts: z.number().int(),
  sentAt: Timestamp.nullable(),
  error: z.string().nullable(),
});
