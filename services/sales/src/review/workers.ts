import type { ServiceRuntime, WorkerDef } from '@bop/shared';
import type { SalesConfig } from '../config';

/** The review queue needs no background work: items wait for a person's decision (reopening a day decides nothing). */
export const reviewWorkers = (_svc: ServiceRuntime<SalesConfig>): WorkerDef[] => [];
