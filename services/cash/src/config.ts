import { z } from 'zod';
import type { BaseConfig } from '@bop/shared';

export const configSchema = z.object({
  /** spec: Limits, records per batch (tender totals, settlements, bank transactions) */
  API_MAX_BATCH_SIZE: z.coerce.number().int().min(1).default(1000),
});

export type CashConfig = BaseConfig & z.output<typeof configSchema>;
