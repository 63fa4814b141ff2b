import { z } from 'zod';
import type { BaseConfig } from '@bop/shared';

export const configSchema = z.object({
  /** how often the report-exports worker looks for queued exports (it also runs at once while more wait) */
  INSIGHTS_EXPORT_POLL_MS: z.coerce.number().int().min(100).default(2000),
});

export type InsightsConfig = BaseConfig & z.output<typeof configSchema>;
