import { Forbidden, internalRoute, ok, created, type InternalRouteDef, type RouteContext } from '@bop/shared';
import { authenticate } from '../sessions/store';
import type { SessionPolicy } from '../sessions/lifetime';
import { listFeatures } from '../features/store';
import { mintIntegrationKey, revokeIntegrationKeys, setIntegrationPaused } from '../api-keys/store';
import { latestEmails } from '../email/store';
import { getSettings } from '../company-settings/store';
import { AuthenticateBody, EmailLogQuery, IntegrationKeyCreate, IntegrationKeyRevoke } from './schemas';

/** Internal routes answer only the system principal (the gateway and other services), never a person or key. */
function systemOnly(ctx: RouteContext): void {
  if (ctx.principal.kind !== 'system') throw new Forbidden('Internal routes are for the platform only.');
}

export const internalRoutes = (policy: SessionPolicy): InternalRouteDef[] => [
  // no transaction: an ended session is recorded ended also when the answer is a refusal (and the gateway asks often)
  internalRoute(
    'POST /internal/authenticate',
    { body: AuthenticateBody },
    async (ctx) => {
      systemOnly(ctx);
      return ok(await authenticate(ctx, policy, ctx.body.token));
    },
    { transaction: false },
  ),

  internalRoute('GET /internal/features', {}, async (ctx) => {
    systemOnly(ctx);
    const features = await listFeatures(ctx);
    return ok({ features: features.map((f) => ({ key: f.key, enabled: f.enabled, effective: f.effective })) });
  }),

  /** The company settings as `GET /company-settings` answers them (purchasing reads the approval threshold and invoice matching tolerances; people the positions and the employee retention days). */
  internalRoute('GET /internal/company-settings', {}, async (ctx) => {
    systemOnly(ctx);
    return ok(await getSettings(ctx));
  }),

  internalRoute('POST /internal/integration-keys', { body: IntegrationKeyCreate }, async (ctx) => {
    systemOnly(ctx);
    return created(await mintIntegrationKey(ctx, ctx.body));
  }),

  internalRoute('POST /internal/integration-keys:revoke', { body: IntegrationKeyRevoke }, async (ctx) => {
    systemOnly(ctx);
    return ok(await revokeIntegrationKeys(ctx, ctx.body));
  }),

  internalRoute('POST /internal/integrations/{id}:pause', {}, async (ctx) => {
    systemOnly(ctx);
    return ok(await setIntegrationPaused(ctx, ctx.params.id, true));
  }),

  internalRoute('POST /internal/integrations/{id}:resume', {}, async (ctx) => {
    systemOnly(ctx);
    return ok(await setIntegrationPaused(ctx, ctx.params.id, false));
  }),

  internalRoute('GET /internal/email-log', { query: EmailLogQuery }, async (ctx) => {
    systemOnly(ctx);
    return ok({ data: await latestEmails(ctx, ctx.query) });
  }),
];
