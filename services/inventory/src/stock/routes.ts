import type { RouteDef, ServiceRuntime } from '@bop/shared';
import type { InventoryConfig } from '../config';

/** Routes of the stock area (filled by its increment). */
export const stockRoutes = (_svc: ServiceRuntime<InventoryConfig>): RouteDef[] => [];
