import type { RouteDef, ServiceRuntime } from '@bop/shared';
import type { InventoryConfig } from '../config';

/** Routes of the counts area (filled by its increment). */
export const countsRoutes = (_svc: ServiceRuntime<InventoryConfig>): RouteDef[] => [];
