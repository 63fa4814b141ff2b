import { ItemStatesRequest } from '@bop/contracts';
import { internalRoute, ok, sqlQuery, type InternalRouteDef } from '@bop/shared';
import type { ItemRow } from './dto';
import { itemDtos } from './store';

/**
 * Inventory's internal read for the item replicas of other services (the kit's read-through): the
 * current items by id, as `item.*` events carry them. System principal only.
 */
export const itemStateRoutes = (): InternalRouteDef[] => [
  internalRoute('POST /internal/items:states', { body: ItemStatesRequest }, async (ctx) => {
    const rows = await sqlQuery<ItemRow>(ctx.em, `select * from "inventory"."items" where "id" = any(array(select jsonb_array_elements_text(?::jsonb))) order by "id"`, [JSON.stringify([...new Set(ctx.body.ids)])]);
    return ok({ data: await itemDtos(ctx.em, rows) });
  }),
];
