import { z } from 'zod';
import type { BaseConfig } from '@bop/shared';
import { HEARTBEAT_INTERVAL_MAX_S, HEARTBEAT_INTERVAL_MIN_S } from '@bop/contracts';

/** Integrations' settings on top of the kit's (read from the environment). */
export const configSchema = z.object({
  /** expected seconds between heartbeats when a manifest names no `heartbeatIntervalSeconds` */
  INTEGRATION_HEARTBEAT_DEFAULT_SECONDS: z.coerce.number().int().min(HEARTBEAT_INTERVAL_MIN_S).max(HEARTBEAT_INTERVAL_MAX_S).default(300),
});

export type IntegrationsConfig = BaseConfig & z.output<typeof configSchema>;
