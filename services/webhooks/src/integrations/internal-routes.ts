import { internalRoute, type InternalRouteDef, type ServiceRuntime } from '@bop/shared';
import type { WebhooksConfig } from '../config';
import { targetRules } from '../endpoints/targets';
import { listIntegrationEndpoints, putIntegrationEndpoints, removeIntegration, setPaused } from './store';
import { IntegrationEndpointsPut } from './internal-schemas';

/** Internal commands for the integrations service (system principal only; the kit enforces it). */
export const internalRoutes = ({ config }: ServiceRuntime<WebhooksConfig>): InternalRouteDef[] => [
  internalRoute('PUT /internal/integrations/{integrationId}/endpoints', { body: IntegrationEndpointsPut }, async (ctx) => ({
    body: await putIntegrationEndpoints(ctx, ctx.params.integrationId, ctx.body, targetRules(config)),
  })),

  internalRoute('GET /internal/integrations/{integrationId}/endpoints', {}, async (ctx) => ({
    body: await listIntegrationEndpoints(ctx, ctx.params.integrationId),
  })),

  internalRoute('DELETE /internal/integrations/{integrationId}/endpoints', {}, async (ctx) => {
    await removeIntegration(ctx, ctx.params.integrationId);
    return { status: 204 };
  }),

  internalRoute('POST /internal/integrations/{integrationId}:pause', {}, async (ctx) => ({
    body: await setPaused(ctx, ctx.params.integrationId, true),
  })),

  internalRoute('POST /internal/integrations/{integrationId}:resume', {}, async (ctx) => ({
    body: await setPaused(ctx, ctx.params.integrationId, false),
  })),
];
