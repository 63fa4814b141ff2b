import type { ConsumerDef } from '@bop/shared';

/** Bus consumers of the counts area (filled by its increment). */
export const countsConsumers: ConsumerDef[] = [];
