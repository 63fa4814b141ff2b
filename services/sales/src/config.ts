import { z } from 'zod';
import type { BaseConfig } from '@bop/shared';

export const configSchema = z.object({
  /** spec: Limits, records per batch */
  API_MAX_BATCH_SIZE: z.coerce.number().int().min(1).default(1000),
});

export type SalesConfig = BaseConfig & z.output<typeof configSchema>;
