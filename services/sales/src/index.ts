import { createService, locationsInOrgUnitsOf, orgReplicaConsumers } from '@bop/shared';
import { SalesTransaction } from './transactions/entities';
import { SalesLocation } from './locations/entities';
import { migrations } from './migrations';
import { configSchema } from './config';
import { transactionRoutes } from './transactions/routes';
import { transactionBatchRoutes } from './transactions/batch-routes';
import { itemsEntities } from './items/entities';
import { itemRoutes } from './items/routes';
import { itemsConsumers } from './items/consumers';
import { summariesEntities } from './summaries/entities';
import { summaryRoutes } from './summaries/routes';
import { summariesWorkers } from './summaries/workers';
import { reviewEntities } from './review/entities';
import { reviewRoutes } from './review/routes';
import { reviewConsumers } from './review/consumers';
import { ordersEntities } from './orders/entities';
import { orderRoutes } from './orders/routes';
import { customersEntities } from './customers/entities';
import { customerRoutes } from './customers/routes';
import { invoicesEntities } from './invoices/entities';
import { invoiceRoutes } from './invoices/routes';

export { configSchema, type SalesConfig } from './config';

/**
 * Sales: transactions (batch ingestion), items matching and the unmapped-items queue, summaries
 * (ingested, and built from transactions), the review queue of locked days, online orders.
 * Each area lives in its own folder (entities, routes, store, dto, rules, consumers, workers); locations/ is
 * sales' replica of the organization.
 */
export const salesService = createService({
  name: 'sales',
  // the kit opens the transaction of every write and commits it with the unit's events (issue 37)
  configSchema,
  entities: [SalesTransaction, SalesLocation, ...itemsEntities, ...summariesEntities, ...reviewEntities, ...ordersEntities, ...customersEntities, ...invoicesEntities],
  migrations,
  // a person's org-unit reach resolves to the locations of those units (sales' replica of the organization)
  locationsInOrgUnits: locationsInOrgUnitsOf('sales'),
  consumers: () => [...orgReplicaConsumers('sales'), ...itemsConsumers, ...reviewConsumers],
  workers: (svc) => summariesWorkers(svc),
  routes: (svc) => [
    ...transactionBatchRoutes(svc),
    ...transactionRoutes(svc),
    ...itemRoutes(svc),
    ...summaryRoutes(svc),
    ...reviewRoutes(svc),
    ...orderRoutes(svc),
    ...customerRoutes(svc),
    ...invoiceRoutes(svc),
  ],
});

export * from './transactions/totals';
export { businessDayOf } from '@bop/shared';
export * from './transactions/normalize';
export * from './transactions/money';
export * from './locations/store';
export * from './transactions/pipeline';
