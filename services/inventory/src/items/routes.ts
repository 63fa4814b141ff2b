import type { RouteDef, ServiceRuntime } from '@bop/shared';
import type { InventoryConfig } from '../config';

/** Routes of the items area (filled by its increment). */
export const itemsRoutes = (_svc: ServiceRuntime<InventoryConfig>): RouteDef[] => [];
