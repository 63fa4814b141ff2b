import { assertLocationInReach, route, type RouteDef, locationFilter } from '@bop/shared';
import { companySettings } from './settings';
import { purchaseOrderDto } from './dto';
import { approveOrder, cancelOrder, createOrder, getOrder, listOrders, receiveOrder, sendOrder } from './store';

/** Purchase orders (spec: Purchasing and ordering; supplement: Purchase order states). Reach: the order's location. */
export const ordersRoutes = (): RouteDef[] => [
  route('GET /purchase-orders', async (ctx) => {
    const inLocations = locationFilter(ctx.reach(), ctx.query.locationId);
    return { body: await listOrders(ctx, inLocations, ctx.query) };
  }),

  route('POST /purchase-orders', async (ctx) => {
    const body = await createOrder(ctx, ctx.body, ctx.requestId);
    return { status: 201, body, headers: { Location: `/api/v1/purchase-orders/${body.id}` } };
  }),

  route('GET /purchase-orders/{id}', async (ctx) => {
    const order = await getOrder(ctx, ctx.params.id);
    assertLocationInReach(ctx.reach(), order.locationId);
    return { body: purchaseOrderDto(order) };
  }),

  route('POST /purchase-orders/{id}:approve', async (ctx) => {
    return { body: await approveOrder(ctx, ctx.params.id, ctx.body.note ?? null) };
  }),

  // the approval threshold is read when sending: a change applies to the next order sent
  route('POST /purchase-orders/{id}:send', async (ctx) => {
    const { purchaseOrderApprovalThreshold } = await companySettings(ctx.services, ctx.requestId);
    return { body: await sendOrder(ctx, ctx.params.id, purchaseOrderApprovalThreshold) };
  }),

  route('POST /purchase-orders/{id}:receive', async (ctx) => {
    return { body: await receiveOrder(ctx, ctx.params.id, ctx.body) };
  }),

  route('POST /purchase-orders/{id}:cancel', async (ctx) => {
    return { body: await cancelOrder(ctx, ctx.params.id, ctx.body.reason ?? null) };
  }),
];
