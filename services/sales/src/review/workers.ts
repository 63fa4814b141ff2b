import type { ServiceRuntime, WorkerDef } from '@bop/shared';
import type { SalesConfig } from '../config';

/** background workers of the review area (stub) */
export const reviewWorkers = (_svc: ServiceRuntime<SalesConfig>): WorkerDef[] => [];
