import { createService } from '@bop/shared';
import { configSchema } from './config';
import { Delivery, Endpoint, FeatureState, IntegrationState } from './entities';
import { migrations } from './migrations';
import { endpointRoutes } from './routes/endpoints';
import { deliveryRoutes } from './routes/deliveries';
import { eventTypeRoutes } from './routes/event-types';
import { internalRoutes } from './routes/internal';
import { fanOutConsumer } from './consumers/fan-out';
import { DeliveryWorker } from './worker/delivery-worker';

export { webhooksAdmin } from './admin';
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
