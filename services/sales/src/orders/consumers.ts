import type { ConsumerDef } from '@bop/shared';

/** consumers of the orders area (stub) */
export const ordersConsumers: ConsumerDef[] = [];
