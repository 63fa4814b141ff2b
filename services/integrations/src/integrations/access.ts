import { Forbidden, OutOfReach, type RouteContext } from '@bop/shared';

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
