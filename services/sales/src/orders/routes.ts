import type { RouteDef, ServiceRuntime } from '@bop/shared';
import type { SalesConfig } from '../config';

/** online sales orders (stub) */
export const orderRoutes = (_svc: ServiceRuntime<SalesConfig>): RouteDef[] => [];
