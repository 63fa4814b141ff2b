import { createService } from '@bop/shared';
import { configSchema } from './config';
import { Integration } from './integrations/entities';
import { IntegrationKey } from './keys/entities';
import { IntegrationLog } from './logs/entities';
import { IngestionBatch } from './batches/entities';
import { migrations } from './migrations';
import { integrationRoutes } from './integrations/routes';
import { logRoutes } from './logs/routes';
import { healthRoutes } from './health/routes';
import { batchRoutes } from './batches/routes';
import { batchConsumer } from './batches/consumers';

export { integrationsAdmin } from './integrations/admin';
export { configSchema } from './config';

export const integrationsService = createService({
  name: 'integrations',
  // the kit opens the transaction of every write (issue 37)
  configSchema,
  entities: [Integration, IntegrationKey, IntegrationLog, IngestionBatch],
  migrations,
  routes: (svc) => [...integrationRoutes(svc), ...logRoutes(), ...healthRoutes(), ...batchRoutes()],
  consumers: () => [batchConsumer],
});
