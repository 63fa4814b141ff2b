import { z } from 'zod';
import type { BaseConfig } from '@bop/shared';

export const inventoryConfigSchema = z.object({
  /** spec: Limits, records per batch (lines of one count, transfer, waste or adjustment) */
  API_MAX_BATCH_SIZE: z.coerce.number().int().min(1).default(1000),
});

export type InventoryConfig = BaseConfig & z.output<typeof inventoryConfigSchema>;
