import type { ConsumerDef } from '@bop/shared';

/** None: built summaries read sales' own transactions, and their periods the location replica (consumers/locations.ts). */
export const summariesConsumers: ConsumerDef[] = [];
