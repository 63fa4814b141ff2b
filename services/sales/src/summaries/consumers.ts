import type { ConsumerDef } from '@bop/shared';

/** consumers of the summaries area (stub) */
export const summariesConsumers: ConsumerDef[] = [];
