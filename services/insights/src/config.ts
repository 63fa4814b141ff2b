import { z } from 'zod';
import type { BaseConfig } from '@bop/shared';

export const configSchema = z.object({
  /** how often the recommendations are worked out again */
  INSIGHTS_RECOMMENDATIONS_POLL_MS: z.coerce.number().int().min(10).default(900_000),
  /** the complete business days before today whose usage gives the usage rate and the usage variance */
  INSIGHTS_USAGE_DAYS: z.coerce.number().int().min(1).max(366).default(14),
  /** the days an order placed today takes to arrive, where no open purchase order brings the item */
  INSIGHTS_REORDER_LEAD_DAYS: z.coerce.number().int().min(0).max(365).default(2),
  /** a supplier's price rise, in percent of the price paid before, beyond which a rise is recommended for action */
  INSIGHTS_PRICE_RISE_PERCENT: z.coerce.number().min(0).max(1000).default(5),
  /** items with the largest usage variance recommended per location */
  INSIGHTS_VARIANCE_ITEMS: z.coerce.number().int().min(0).max(100).default(3),
  /** staffing against the forecast: the net sales a labor hour should bring (a decimal string such as "60"); unset: no staffing recommendations */
  INSIGHTS_TARGET_SPLH: z.string().regex(/^\d{1,9}(\.\d{1,2})?$/).optional(),
  /** the business days from today whose staffing is checked against the forecast */
  INSIGHTS_STAFFING_DAYS: z.coerce.number().int().min(1).max(63).default(7),
  /** hours under- or over-staffed in a day, in percent of the hours the forecast needs, beyond which the day is recommended for action */
  INSIGHTS_STAFFING_TOLERANCE_PERCENT: z.coerce.number().min(0).max(1000).default(10),
  /** how often the report-exports worker looks for queued exports (it also runs at once while more wait) */
  INSIGHTS_EXPORT_POLL_MS: z.coerce.number().int().min(100).default(2000),
  /** how often the report-schedules worker looks for a schedule whose period has ended */
  INSIGHTS_SCHEDULE_POLL_MS: z.coerce.number().int().min(100).default(60_000),
  /** the API's public address (`https://bop.example.com`), for the download links scheduled reports e-mail; unset: links start at /api/v1 */
  INSIGHTS_PUBLIC_URL: z.url().optional(),
  /** how often the alert worker looks for marked (rule, location) pairs and windows that rolled over */
  INSIGHTS_ALERTS_POLL_MS: z.coerce.number().int().min(10).default(1_000),
});

export type InsightsConfig = BaseConfig & z.output<typeof configSchema>;
