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
import { deliveryWorker } from './deliveries/delivery-worker';

export { webhooksAdmin } from './endpoints/admin';
export { configSchema } from './config';

export const webhooksService = createService({
  name: 'webhooks',
  configSchema,
  // the kit opens the transaction of every write and commits it with the unit's events
  entities: [Endpoint, Delivery, IntegrationState, FeatureState],
  migrations,
  routes: (svc) => [...endpointRoutes(svc), ...deliveryRoutes(), ...eventTypeRoutes()],
  internalRoutes,
  consumers: (svc) => [fanOutConsumer(svc.schema)],
  workers: (svc) => [deliveryWorker(svc)],
});
