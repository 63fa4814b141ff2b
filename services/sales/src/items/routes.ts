import type { RouteDef, ServiceRuntime } from '@bop/shared';
import type { SalesConfig } from '../config';

/** GET /sales/unmapped-items, POST /sales/unmapped-items:map (stub) */
export const itemRoutes = (_svc: ServiceRuntime<SalesConfig>): RouteDef[] => [];
