import type { ServiceRuntime, WorkerDef } from '@bop/shared';
import type { SalesConfig } from '../config';

/** background workers of the items area (stub) */
export const itemsWorkers = (_svc: ServiceRuntime<SalesConfig>): WorkerDef[] => [];
