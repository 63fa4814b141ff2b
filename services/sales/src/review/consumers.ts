import type { ConsumerDef } from '@bop/shared';

/** consumers of the review area (stub) */
export const reviewConsumers: ConsumerDef[] = [];
