import type { RouteDef, ServiceRuntime } from '@bop/shared';
import type { SalesConfig } from '../config';

/** POST /sales-summaries, GET /sales-summaries, GET /sales-summaries/{id} (stub) */
export const summaryRoutes = (_svc: ServiceRuntime<SalesConfig>): RouteDef[] => [];
