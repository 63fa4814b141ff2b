import type { Work } from '@bop/shared';
import { integrationDto } from './dto';
import { allIntegrations } from './store';

/** The ops CLI's entry points; each takes a unit of the service's runtime (`runtime.read(…)`). */
export const integrationsAdmin = {
  /** `integrations list`: every integration with status and health at the unit's instant */
  async listIntegrations(w: Work) {
    const rows = await allIntegrations(w);
    return rows.map((r) => integrationDto(r, w.now));
  },
};
