import type { ConsumerDef } from '@bop/shared';

/** Bus consumers of the items area: none (items are mastered here; sales replicates them from item.* events). */
export const itemsConsumers: ConsumerDef[] = [];
