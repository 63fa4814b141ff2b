import { z } from 'zod';
import type { BaseConfig } from '@bop/shared';

export const configSchema = z.object({
  /** how often scheduled announcements are published and passed deadlines reminded (each within this time of its instant) */
  COMMUNICATION_ANNOUNCEMENT_CHECK_MS: z.coerce.number().int().min(10).default(30_000),
  /** how long a screen's pairing code can be entered */
  COMMUNICATION_DISPLAY_PAIRING_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(600),
  /** how often an open display stream gets a keep-alive and its screen token is checked again */
  COMMUNICATION_DISPLAY_HEARTBEAT_MS: z.coerce.number().int().min(100).default(15_000),
  /** how often notifications held outside a person's shifts are checked (each goes out within this time of their next shift's start) */
  COMMUNICATION_NOTIFICATION_CHECK_MS: z.coerce.number().int().min(10).default(30_000),
});

export type CommunicationConfig = BaseConfig & z.output<typeof configSchema>;
