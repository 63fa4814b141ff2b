import { z } from 'zod';
import type { BaseConfig } from '@bop/shared';

export const configSchema = z.object({
  /** weekly hours after which overtime is paid, when time's overtime rules cannot be read (time not reachable from this process) */
  SCHEDULING_WEEKLY_OVERTIME_HOURS: z.coerce.number().min(1).max(168).default(40),
});

export type SchedulingConfig = BaseConfig & z.output<typeof configSchema>;
