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
});

export type InsightsConfig = BaseConfig & z.output<typeof configSchema>;
