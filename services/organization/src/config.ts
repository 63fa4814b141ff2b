import { z } from 'zod';
import type { BaseConfig } from '@bop/shared';

/** Organization has no settings of its own: the kit's (read from the environment) are all it needs. */
export const configSchema = z.object({});

export type OrganizationConfig = BaseConfig & z.output<typeof configSchema>;
