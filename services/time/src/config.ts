import { z } from 'zod';
import type { BaseConfig } from '@bop/shared';

export const configSchema = z.object({
  /** spec: Limits, records per batch */
  API_MAX_BATCH_SIZE: z.coerce.number().int().min(1).default(1000),
  /** idle poll of the timesheet recalculation queue (a mark wakes nothing across processes: the poll is the fallback) */
  TIME_TIMESHEET_POLL_MS: z.coerce.number().int().min(10).default(250),
});

export type TimeConfig = BaseConfig & z.output<typeof configSchema>;
