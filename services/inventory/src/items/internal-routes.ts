import { ItemStatesRequest } from '@bop/contracts';
import { internalRoute, ok, type InternalRouteDef } from '@bop/shared';
import { itemsByRefs } from './store';

/**
 * Inventory's internal read for the item replicas of other services (the kit's read-through): the
 * current items by id or by the references sales lines carry, as `item.*` events carry them. System principal only.
 */
export const itemStateRoutes = (): InternalRouteDef[] => [
  // a read: no transaction
  internalRoute('POST /internal/items:states', { body: ItemStatesRequest }, async (ctx) => ok({ data: await itemsByRefs(ctx, ctx.body) }), { transaction: false }),
];
