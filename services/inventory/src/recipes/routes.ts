import type { RouteDef, ServiceRuntime } from '@bop/shared';
import type { InventoryConfig } from '../config';

/** Routes of the recipes area (filled by its increment). */
export const recipesRoutes = (_svc: ServiceRuntime<InventoryConfig>): RouteDef[] => [];
