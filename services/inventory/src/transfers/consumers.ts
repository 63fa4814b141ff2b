import type { ConsumerDef } from '@bop/shared';

/** Bus consumers of the transfers area (filled by its increment). */
export const transfersConsumers: ConsumerDef[] = [];
