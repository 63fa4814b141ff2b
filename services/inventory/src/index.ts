import { createService, locationsInOrgUnitsOf, orgReplicaConsumers } from '@bop/shared';
import { configSchema } from './config';
import { migrations } from './migrations';
import { itemsEntities } from './items/entities';
import { itemsRoutes } from './items/routes';
import { stockEntities } from './stock/entities';
import { stockRoutes } from './stock/routes';
import { recipesEntities } from './recipes/entities';
import { recipesRoutes } from './recipes/routes';
import { recipesConsumers } from './recipes/consumers';
import { countsEntities } from './counts/entities';
import { countsRoutes } from './counts/routes';
import { transfersEntities } from './transfers/entities';
import { transfersRoutes } from './transfers/routes';
import { reservationsEntities } from './reservations/entities';
import { reservationRoutes } from './reservations/routes';
import { reservationsConsumers } from './reservations/consumers';
import { purchasingRoutes } from './purchasing/routes';
import { itemStateRoutes } from './items/internal-routes';
import { purchasingConsumers } from './purchasing/consumers';

export { configSchema, type InventoryConfig } from './config';

/**
 * Inventory: items and their reference data (categories, units of measure, storage areas), the
 * append-only stock ledger and the levels derived from it (ledger/store.ts: every stock change goes
 * through it), adjustments and waste, usage recipes and the depletion of sales, counts, transfers,
 * the stock held for online sales orders (reservations/), and purchase receipts and purchasing's
 * reads (purchasing/).
 * Each area lives in its own folder (entities, routes, consumers, domain).
 */
export const inventoryService = createService({
  name: 'inventory',
  configSchema,
  entities: [...stockEntities, ...itemsEntities, ...recipesEntities, ...countsEntities, ...transfersEntities, ...reservationsEntities],
  migrations,
  // a person's org-unit reach resolves to the locations of those units (inventory's replica of the organization)
  locationsInOrgUnits: locationsInOrgUnitsOf('inventory'),
  consumers: (svc) => [...orgReplicaConsumers('inventory'), ...recipesConsumers(svc), ...reservationsConsumers, ...purchasingConsumers],
  routes: (svc) => [...itemsRoutes(svc), ...stockRoutes(svc), ...recipesRoutes(), ...countsRoutes(), ...transfersRoutes()],
  // sales' commands for online orders (reserve, ship, release); purchasing's reads (items:resolve, replenishment); the item replicas' read-through (items:states)
  internalRoutes: () => [...reservationRoutes(), ...purchasingRoutes(), ...itemStateRoutes()],
});

export * from './ledger/store';
export * from './ledger/quantity';
export * from './items/lines';
export * from './items/lines-store';
