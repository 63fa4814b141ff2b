import type { EntityManager } from '@mikro-orm/postgresql';
import { now as clockNow } from '@bop/shared';
import { integrationDto } from './dto';
import { allIntegrations } from './store';

/** The ops CLI's entry points; each takes any EntityManager (forked here, so the global one is fine). */
export const integrationsAdmin = {
  /** `integrations list`: every integration with status and health at `now` */
  async listIntegrations(em: EntityManager, now: Date = clockNow()) {
    const rows = await allIntegrations(em);
    return rows.map((r) => integrationDto(r, now));
  },
};
