import type { ConsumerDef } from '@bop/shared';

/** consumers of the items area (stub) */
export const itemsConsumers: ConsumerDef[] = [];
