import { LockMode } from '@mikro-orm/core';
import { Forbidden, NotFound, OutOfReach, type EntityManager, type RouteContext } from '@bop/shared';
import { Integration } from '../entities';

/**
 * Managing integrations: a person (or the platform) with integrations.manage at reach Everyone
 * (spec: Authentication rule 5); integration keys never.
 */
export function assertManager(ctx: RouteContext): void {
  if (ctx.principal.kind === 'integration') throw new Forbidden('Integration keys may not manage integrations.');
  if (!ctx.reach().everyone) throw new OutOfReach('Managing integrations needs integrations.manage at reach Everyone.');
}

/** The calling integration (for `/integrations/self/...`), by the key's integration id. */
export function selfIntegrationId(ctx: RouteContext): string {
  const p = ctx.principal;
  if (p.kind !== 'integration' || !p.integrationId) throw new Forbidden('Only an integration key may call this endpoint.');
  return p.integrationId;
}

export async function findIntegration(em: EntityManager, id: string, lock = false): Promise<Integration> {
  const row = await em.findOne(Integration, { id }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!row) throw new NotFound('integration', id);
  return row;
}
