import { z } from 'zod';
import type { BaseConfig } from '@bop/shared';

export const configSchema = z.object({
  /** spec: Limits, records per batch */
  API_MAX_BATCH_SIZE: z.coerce.number().int().min(1).default(1000),
  /** sensor readings older than this many days are deleted (whole month partitions dropped); 0 keeps them all */
  OPERATIONS_SENSOR_READING_RETENTION_DAYS: z.coerce.number().int().min(0).default(0),
  /** the readings' month partitions are created this many months ahead */
  OPERATIONS_SENSOR_PARTITION_MONTHS_AHEAD: z.coerce.number().int().min(1).max(24).default(2),
  /** how often the partition worker runs (ms) */
  OPERATIONS_SENSOR_PARTITION_CHECK_MS: z.coerce.number().int().min(1000).default(3_600_000),
  /** how often the clock check raises alarms of sensors gone quiet out of range (ms) */
  OPERATIONS_SENSOR_ALARM_CHECK_MS: z.coerce.number().int().min(50).default(10_000),
});

export type OperationsConfig = BaseConfig & z.output<typeof configSchema>;
