import { z } from 'zod';
import type { BaseConfig } from '@bop/shared';

export const configSchema = z.object({
  /** spec: Limits, records per batch (lines of one count, transfer, waste or adjustment) */
  API_MAX_BATCH_SIZE: z.coerce.number().int().min(1).default(1000),
  /**
   * After a batch of sales, the depletion waits this long before reading the next: under load a
   * burst of sales gathers into one posting (far cheaper per sale); 0 reads as soon as sales arrive.
   */
  DEPLETION_SETTLE_MS: z.coerce.number().int().min(0).max(10_000).default(1000),
});

export type InventoryConfig = BaseConfig & z.output<typeof configSchema>;
