import type { ConsumerDef } from '@bop/shared';

/** Bus consumers of the items area (filled by its increment). */
export const itemsConsumers: ConsumerDef[] = [];
