import type { RouteDef, ServiceRuntime } from '@bop/shared';
import type { InventoryConfig } from '../config';
import { categoryRoutes } from './category-routes';
import { itemRoutes } from './item-routes';
import { storageAreaRoutes } from './storage-area-routes';
import { unitRoutes } from './unit-routes';

/** Routes of the items area: items, item categories, units of measure, storage areas. */
export const itemsRoutes = (_svc: ServiceRuntime<InventoryConfig>): RouteDef[] => [...itemRoutes(), ...categoryRoutes(), ...unitRoutes(), ...storageAreaRoutes()];
