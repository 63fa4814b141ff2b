import { createService } from '@bop/shared';
import { configSchema } from './config';
import { entities } from './entities';
import { migrations } from './migrations';
import { integrationRoutes } from './routes/integrations';
import { logRoutes } from './routes/logs';
import { healthRoutes } from './routes/health';
import { batchRoutes } from './routes/batches';
import { batchConsumer } from './consumers/batches';

export { integrationsAdmin } from './admin';
export { configSchema } from './config';

export const integrationsService = createService({
  name: 'integrations',
  configSchema,
  entities,
  migrations,
  routes: (svc) => [...integrationRoutes(svc), ...logRoutes(svc), ...healthRoutes(svc), ...batchRoutes()],
  consumers: () => [batchConsumer],
});
