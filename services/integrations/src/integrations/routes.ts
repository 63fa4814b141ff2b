import { created, newId, noContent, ok, route, ValidationError, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { IntegrationsConfig } from '../config';
import { configErrors } from './config-values';
import { manifestErrors } from './manifest';
import { assertManager } from './access';
import { integrationStore } from './store';

/** A change that also asks identity or the webhooks service opens its own transaction (integrationStore). */
const OWN = { transaction: false } as const;

export const integrationRoutes = (svc: ServiceRuntime<IntegrationsConfig>): RouteDef[] => {
  const store = integrationStore(svc);

  return [
    route('GET /integrations', async (ctx) => {
      assertManager(ctx);
      return ok(await store.list(ctx, ctx.query));
    }),

    route('POST /integrations', async (ctx) => {
      assertManager(ctx);
      const { manifest } = ctx.body;
      const config = ctx.body.config ?? {};
      const errors = [...manifestErrors(manifest, 'manifest'), ...configErrors(manifest.config, config)];
      if (errors.length > 0) throw new ValidationError(errors);
      const id = newId('integration');
      const body = await store.register(ctx, id, manifest, config);
      return { ...created(body), headers: { Location: `/api/v1/integrations/${id}` } };
    }, OWN),

    route('GET /integrations/{id}', async (ctx) => {
      assertManager(ctx);
      const body = await store.read(ctx, ctx.params.id, ctx.requestId);
      return ok(body, { ETag: `"${body.version}"` });
    }),

    route('DELETE /integrations/{id}', async (ctx) => {
      assertManager(ctx);
      await store.remove(ctx, ctx.params.id);
      return noContent();
    }, OWN),

    route('PUT /integrations/{id}/manifest', async (ctx) => {
      assertManager(ctx);
      const manifest = ctx.body;
      const errors = manifestErrors(manifest);
      if (errors.length > 0) throw new ValidationError(errors);
      const body = await store.replaceManifest(ctx, ctx.params.id, manifest);
      return ok(body, { ETag: `"${body.integration.version}"` });
    }, OWN),

    route('PATCH /integrations/{id}/config', async (ctx) => {
      assertManager(ctx);
      return ok(await store.patchConfig(ctx, ctx.params.id, ctx.body));
    }),

    route('POST /integrations/{id}:pause', async (ctx) => {
      assertManager(ctx);
      return ok(await store.pause(ctx, ctx.params.id));
    }, OWN),

    route('POST /integrations/{id}:resume', async (ctx) => {
      assertManager(ctx);
      return ok(await store.resume(ctx, ctx.params.id));
    }, OWN),

    route('POST /integrations/{id}:rotate-key', async (ctx) => {
      assertManager(ctx);
      return ok(await store.rotateKey(ctx, ctx.params.id, ctx.body.graceMinutes));
    }, OWN),
  ];
};
