import type { ServiceRuntime, WorkerDef } from '@bop/shared';
import type { SalesConfig } from '../config';

/** The items area has no background work: matching, the queue and recalculation run in the writing transaction. */
export const itemsWorkers = (_svc: ServiceRuntime<SalesConfig>): WorkerDef[] => [];
