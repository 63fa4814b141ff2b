import { z } from 'zod';
import type { BaseConfig } from '@bop/shared';

export const configSchema = z.object({
  /** how often the alert worker looks for marked (rule, location) pairs and windows that rolled over */
  INSIGHTS_ALERTS_POLL_MS: z.coerce.number().int().min(10).default(1_000),
});

export type InsightsConfig = BaseConfig & z.output<typeof configSchema>;
