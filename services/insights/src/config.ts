import { z } from 'zod';
import type { BaseConfig } from '@bop/shared';

export const configSchema = z.object({
  /** how often the report-exports worker looks for queued exports (it also runs at once while more wait) */
  INSIGHTS_EXPORT_POLL_MS: z.coerce.number().int().min(100).default(2000),
  /** how often the report-schedules worker looks for a schedule whose period has ended */
  INSIGHTS_SCHEDULE_POLL_MS: z.coerce.number().int().min(100).default(60_000),
  /** the API's public address (`https://bop.example.com`), for the download links scheduled reports e-mail; unset: links start at /api/v1 */
  INSIGHTS_PUBLIC_URL: z.url().optional(),
});

export type InsightsConfig = BaseConfig & z.output<typeof configSchema>;
