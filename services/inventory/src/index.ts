import { createService, locationsInOrgUnitsOf, orgReplicaConsumers } from '@bop/shared';
import { inventoryConfigSchema } from './config';
import { InventoryLocation } from './entities';
import { migrations } from './migrations';
import { itemsEntities } from './items/entities';
import { itemsRoutes } from './items/routes';
import { itemsConsumers } from './items/consumers';
import { stockEntities } from './stock/entities';
import { stockRoutes } from './stock/routes';
import { stockConsumers } from './stock/consumers';
import { recipesEntities } from './recipes/entities';
import { recipesRoutes } from './recipes/routes';
import { recipesConsumers } from './recipes/consumers';
import { countsEntities } from './counts/entities';
import { countsRoutes } from './counts/routes';
import { countsConsumers } from './counts/consumers';
import { transfersEntities } from './transfers/entities';
import { transfersRoutes } from './transfers/routes';
import { transfersConsumers } from './transfers/consumers';
import { reservationRoutes } from './reservations/routes';
import { reservationsConsumers } from './reservations/consumers';
import { purchasingRoutes } from './purchasing/routes';
import { itemStateRoutes } from './items/internal-routes';
import { purchasingConsumers } from './purchasing/consumers';

export { inventoryConfigSchema, type InventoryConfig } from './config';

/**
 * Inventory: items and their reference data (categories, units of measure, storage areas), the
 * append-only stock ledger and the levels derived from it (ledger/post.ts: every stock change goes
 * through it), adjustments and waste, usage recipes and the depletion of sales, counts, transfers,
 * the stock held for online sales orders (reservations/), and purchase receipts and purchasing's
 * reads (purchasing/).
 * Each area lives in its own folder (entities, routes, consumers, domain).
 */
export const inventoryService = createService({
  name: 'inventory',
  configSchema: inventoryConfigSchema,
  entities: [InventoryLocation, ...itemsEntities, ...stockEntities, ...recipesEntities, ...countsEntities, ...transfersEntities],
  migrations,
  // a person's org-unit reach resolves to the locations of those units (inventory's replica of the organization)
  locationsInOrgUnits: locationsInOrgUnitsOf('inventory'),
  consumers: (svc) => [...orgReplicaConsumers('inventory'), ...itemsConsumers, ...stockConsumers, ...recipesConsumers(svc), ...countsConsumers, ...transfersConsumers, ...reservationsConsumers, ...purchasingConsumers],
  routes: (svc) => [...itemsRoutes(svc), ...stockRoutes(svc), ...recipesRoutes(svc), ...countsRoutes(svc), ...transfersRoutes(svc)],
  // sales' commands for online orders (reserve, ship, release); purchasing's reads (items:resolve, replenishment); the item replicas' read-through (items:states)
  internalRoutes: () => [...reservationRoutes(), ...purchasingRoutes(), ...itemStateRoutes()],
});

export * from './ledger/post';
export * from './domain/quantity';
export * from './domain/lines';
