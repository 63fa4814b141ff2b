import { createService } from '@bop/shared';
import { configSchema } from './config';
import { Endpoint } from './endpoints/entities';
import { Delivery } from './deliveries/entities';
import { IntegrationState } from './integrations/entities';
import { FeatureState } from './features/entities';
import { migrations } from './migrations';
import { endpointRoutes } from './endpoints/routes';
import { deliveryRoutes } from './deliveries/routes';
import { eventTypeRoutes } from './event-types/routes';
import { internalRoutes } from './integrations/internal-routes';
import { fanOutConsumer } from './deliveries/consumers';
import { DeliveryWorker } from './deliveries/delivery-worker';

export { webhooksAdmin } from './endpoints/admin';
export { configSchema } from './config';

export const webhooksService = createService({
  name: 'webhooks',
  configSchema,
  entities: [Endpoint, Delivery, IntegrationState, FeatureState],
  migrations,
  routes: (svc) => [...endpointRoutes(svc), ...deliveryRoutes(svc), ...eventTypeRoutes()],
  internalRoutes,
  consumers: ({ clock }) => [fanOutConsumer(clock)],
  workers: ({ orm, clock, log, config }) => [
    new DeliveryWorker({
      orm,
      clock,
      log,
      concurrency: config.WEBHOOK_CONCURRENCY,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
      disableAfterFailures: config.WEBHOOK_DISABLE_AFTER_FAILURES,
      pollMs: config.WEBHOOK_POLL_MS,
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    }),
  ],
});
