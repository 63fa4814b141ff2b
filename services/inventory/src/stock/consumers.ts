import type { ConsumerDef } from '@bop/shared';

/** Bus consumers of the stock area (filled by its increment). */
export const stockConsumers: ConsumerDef[] = [];
