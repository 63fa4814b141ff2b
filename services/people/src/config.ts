import { z } from 'zod';
import type { BaseConfig } from '@bop/shared';

export const configSchema = z.object({
  /** how often due transfers, terminations and anonymisations are looked for (ms) */
  PEOPLE_EFFECTIVE_CHANGES_POLL_MS: z.coerce.number().int().min(100).default(60_000),
});

export type PeopleConfig = BaseConfig & z.output<typeof configSchema>;
