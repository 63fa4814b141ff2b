import { createService, locationsInOrgUnitsOf, orgReplicaConsumers } from '@bop/shared';
import { configSchema } from './config';
import { PurchasingLocation } from './locations/entities';
import { migrations } from './migrations';
import { suppliersEntities } from './suppliers/entities';
import { suppliersRoutes } from './suppliers/routes';
import { ordersEntities } from './orders/entities';
import { ordersRoutes } from './orders/routes';
import { invoicesEntities } from './invoices/entities';
import { invoicesRoutes } from './invoices/routes';
import { suggestedRoutes } from './suggested/routes';

export { configSchema, type PurchasingConfig } from './config';

/**
 * Purchasing: suppliers and their catalogs (order guides), purchase orders from draft to received
 * (receipts reach inventory as the internal `purchasing.receipt.recorded` event), supplier invoices
 * matched three ways against orders and receipts, and suggested orders from inventory's levels and
 * recent depletion. Company settings (approval threshold, match tolerances) are read from identity (orders/settings.ts).
 * Each area lives in its own folder (entities, routes, store, rules); locations/ is purchasing's replica
 * of organization's locations.
 */
export const purchasingService = createService({
  name: 'purchasing',
  // the kit opens the transaction of every write (issue 37)
  configSchema,
  entities: [PurchasingLocation, ...suppliersEntities, ...ordersEntities, ...invoicesEntities],
  migrations,
  // a person's org-unit reach resolves to the locations of those units (purchasing's replica of the organization)
  locationsInOrgUnits: locationsInOrgUnitsOf('purchasing'),
  consumers: () => [...orgReplicaConsumers('purchasing')],
  routes: () => [...suppliersRoutes(), ...ordersRoutes(), ...invoicesRoutes(), ...suggestedRoutes()],
});
