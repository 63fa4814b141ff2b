import type { ServiceRuntime, WorkerDef } from '@bop/shared';
import type { SalesConfig } from '../config';

/** background workers of the orders area (stub) */
export const ordersWorkers = (_svc: ServiceRuntime<SalesConfig>): WorkerDef[] => [];
