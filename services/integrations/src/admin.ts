import type { EntityManager } from '@mikro-orm/postgresql';
import { Integration } from './entities';
import { integrationDto } from './dto';

/** The ops CLI's entry points; each takes any EntityManager (forked here, so the global one is fine). */
export const integrationsAdmin = {
  /** `integrations list`: every integration with status and health at `now` */
  async listIntegrations(em: EntityManager, now: Date = new Date()) {
    const rows = await em.fork().find(Integration, {}, { orderBy: { id: 'asc' } });
    return rows.map((r) => integrationDto(r, now));
  },
};
