import { ItemsResolveRequest, ReplenishmentRequest } from '@bop/contracts';
import { internalRoute, ok, type InternalRouteDef } from '@bop/shared';
import { replenishment, resolveItems } from './store';

/**
 * Purchasing's internal reads (contracts/src/purchasing/internal.ts): the items and units of a supplier
 * catalog, and levels and usage for suggested orders. Like every internal route, the kit answers only
 * the system principal (a person or key gets 403).
 */
export const purchasingRoutes = (): InternalRouteDef[] => [
  // reads: no transaction
  internalRoute('POST /internal/items:resolve', { body: ItemsResolveRequest }, async (ctx) => ok(await resolveItems(ctx, ctx.body)), { transaction: false }),
  internalRoute('POST /internal/replenishment', { body: ReplenishmentRequest }, async (ctx) => ok(await replenishment(ctx, ctx.body)), { transaction: false }),
];
