import type { ConsumerDef } from '@bop/shared';

/** Bus consumers of the stock area: none (adjustments, waste and level settings come only through the API). */
export const stockConsumers: ConsumerDef[] = [];
