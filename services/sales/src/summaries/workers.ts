import type { ServiceRuntime, WorkerDef } from '@bop/shared';
import type { SalesConfig } from '../config';

/** background workers of the summaries area (stub) */
export const summariesWorkers = (_svc: ServiceRuntime<SalesConfig>): WorkerDef[] => [];
