import type { ConsumerDef } from '@bop/shared';

/** None: built summaries read sales' own transactions, and their periods the location replica (the kit's orgReplicaConsumers). */
export const summariesConsumers: ConsumerDef[] = [];
