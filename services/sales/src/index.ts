import { z } from 'zod';
import { createService } from '@bop/shared';
import { SalesLocation, SalesTransaction } from './entities';
import { migrations } from './migrations';
import { locationReplicaConsumer } from './consumers/locations';
import { transactionRoutes } from './routes/transactions';
import { transactionBatchRoutes } from './routes/transactions-batch';

export const salesConfigSchema = z.object({
  /** spec: Limits, records per batch */
  API_MAX_BATCH_SIZE: z.coerce.number().int().min(1).default(1000),
});

export const salesService = createService({
  name: 'sales',
  configSchema: salesConfigSchema,
  entities: [SalesTransaction, SalesLocation],
  migrations,
  consumers: () => [locationReplicaConsumer],
  routes: (svc) => [...transactionBatchRoutes(svc), ...transactionRoutes(svc)],
});

export * from './domain/totals';
export * from './domain/business-day';
export * from './domain/normalize';
export * from './domain/money';
export * from './locations';
