import { NotFound, OutOfReach, assertLocationInReach, mapPage, reachableLocationIds, route, type RouteDef } from '@bop/shared';
import { transferDto } from './dto';
import { createTransfer, findTransfer, listTransfers, receiveTransfer } from './store';

/**
 * Transfers (spec: Inventory /transfers; supplement: Transfer states). Reach: sending needs the
 * sending location, receiving the receiving one; reading either side.
 */
export const transfersRoutes = (): RouteDef[] => [
  route('GET /transfers', async (ctx) => {
    const { limit, cursor, updatedSince, locationId, status, from } = ctx.query;
    const reach = ctx.reach();
    const reachable = reachableLocationIds(reach);
    if (locationId) assertLocationInReach(reach, locationId);
    return { body: mapPage(await listTransfers(ctx, { locationId, reachable, status, from }, { limit, cursor, updatedSince }), transferDto) };
  }),

  route('POST /transfers', async (ctx) => {
    assertLocationInReach(ctx.reach(), ctx.body.fromLocationId);
    const body = await createTransfer(ctx, ctx.body);
    return { status: 201, body, headers: { Location: `/api/v1/transfers/${body.id}` } };
  }),

  route('GET /transfers/{id}', async (ctx) => {
    const reachable = reachableLocationIds(ctx.reach());
    const transfer = await findTransfer(ctx, ctx.params.id);
    if (!transfer) throw new NotFound('transfer', ctx.params.id);
    if (reachable && !reachable.includes(transfer.fromLocationId) && !reachable.includes(transfer.toLocationId)) {
      throw new OutOfReach(`Your permission reaches neither location ${transfer.fromLocationId} nor ${transfer.toLocationId}.`);
    }
    return { body: transferDto(transfer) };
  }),

  // supplement: in_transit → :receive → received | received_with_discrepancy (both final)
  route('POST /transfers/{id}:receive', async (ctx) => {
    return { body: await receiveTransfer(ctx, ctx.params.id, ctx.body) };
  }),
];
