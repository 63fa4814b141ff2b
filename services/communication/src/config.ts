import { z } from 'zod';
import type { BaseConfig } from '@bop/shared';

export const configSchema = z.object({
  /** how often scheduled announcements are published and passed deadlines reminded (each within this time of its instant) */
  COMMUNICATION_ANNOUNCEMENT_CHECK_MS: z.coerce.number().int().min(10).default(30_000),
  /** how often notifications held outside a person's shifts are checked (each goes out within this time of their next shift's start) */
  COMMUNICATION_NOTIFICATION_CHECK_MS: z.coerce.number().int().min(10).default(30_000),
});

export type CommunicationConfig = BaseConfig & z.output<typeof configSchema>;
