import { createService } from '@bop/shared';
import { configSchema } from './config';
import { Endpoint } from './endpoints/entities';
import { Delivery } from './deliveries/entities';
import { IntegrationState } from './integrations/entities';
import { FeatureState } from './features/entities';
import { EventLogState, LoggedEvent } from './events/entities';
import { Replay } from './replays/entities';
import { replayRoutes } from './replays/routes';
import { replayWorker } from './replays/workers';
import { migrations } from './migrations';
import { endpointRoutes } from './endpoints/routes';
import { deliveryRoutes } from './deliveries/routes';
import { eventTypeRoutes } from './event-types/routes';
import { eventLogRoutes } from './events/routes';
import { eventLogRetention, eventLogSequencer } from './events/workers';
import { internalRoutes } from './integrations/internal-routes';
import { fanOutConsumer } from './deliveries/consumers';
import { deliveryWorker } from './deliveries/delivery-worker';

export { webhooksAdmin } from './endpoints/admin';
export { configSchema } from './config';

export const webhooksService = createService({
  name: 'webhooks',
  configSchema,
  // the kit opens the transaction of every write and commits it with the unit's events
  entities: [Endpoint, Delivery, IntegrationState, FeatureState, LoggedEvent, EventLogState, Replay],
  migrations,
  routes: (svc) => [...endpointRoutes(svc), ...deliveryRoutes(), ...replayRoutes(svc), ...eventTypeRoutes(), ...eventLogRoutes()],
  internalRoutes,
  consumers: () => [fanOutConsumer()],
  workers: (svc) => [deliveryWorker(svc), eventLogSequencer(svc), eventLogRetention(svc), replayWorker(svc)],
});
