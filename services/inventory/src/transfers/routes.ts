import type { RouteDef, ServiceRuntime } from '@bop/shared';
import type { InventoryConfig } from '../config';

/** Routes of the transfers area (filled by its increment). */
export const transfersRoutes = (_svc: ServiceRuntime<InventoryConfig>): RouteDef[] => [];
