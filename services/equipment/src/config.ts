import { z } from 'zod';
import type { BaseConfig } from '@bop/shared';

export const configSchema = z.object({
  /** spec: Limits, records per batch */
  API_MAX_BATCH_SIZE: z.coerce.number().int().min(1).default(1000),
  /** how often the daily maintenance check looks for date plans come due (a plan comes due within this time of its local midnight) */
  EQUIPMENT_MAINTENANCE_CHECK_MS: z.coerce.number().int().min(10).default(60_000),
});

export type EquipmentConfig = BaseConfig & z.output<typeof configSchema>;
