import type { ConsumerDef } from '@bop/shared';

/** Bus consumers of the recipes area (filled by its increment). */
export const recipesConsumers: ConsumerDef[] = [];
