import { z } from 'zod';
import type { BaseConfig } from '@bop/shared';

export const configSchema = z.object({});

export type InsightsConfig = BaseConfig & z.output<typeof configSchema>;
