import type { RouteDef, ServiceRuntime } from '@bop/shared';
import type { SalesConfig } from '../config';

/** GET /sales/review-items and the decisions on them (stub) */
export const reviewRoutes = (_svc: ServiceRuntime<SalesConfig>): RouteDef[] => [];
