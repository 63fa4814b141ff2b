import { z } from 'zod';
import type { BaseConfig } from '@bop/shared';

export const configSchema = z.object({
  /** spec: Limits, records per batch */
  API_MAX_BATCH_SIZE: z.coerce.number().int().min(1).default(1000),
  /** weekly hours after which overtime is paid, when time's overtime rules cannot be read (time not reachable from this process) */
  SCHEDULING_WEEKLY_OVERTIME_HOURS: z.coerce.number().min(1).max(168).default(40),
  /** how often pending shift swaps are checked for shifts that have started (supplement: `expired`) */
  SCHEDULING_SWAP_EXPIRY_POLL_MS: z.coerce.number().int().min(10).default(30_000),
  /** how often the forecast fit worker looks for forecasts to fit again (docs/scheduling.md: stored forecasts) */
  SCHEDULING_FORECAST_FIT_POLL_MS: z.coerce.number().int().min(10).default(5_000),
  /** quiet spell after a location's last driver write before its forecast is fitted again (a burst of batches gives one fit) */
  SCHEDULING_FORECAST_FIT_QUIET_MS: z.coerce.number().int().min(0).default(2_000),
  /** the longest a change waits for its fit while writes keep coming */
  SCHEDULING_FORECAST_FIT_MAX_WAIT_MS: z.coerce.number().int().min(0).default(60_000),
});

export type SchedulingConfig = BaseConfig & z.output<typeof configSchema>;
