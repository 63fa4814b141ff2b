import { assertLocationInReach, route, type RouteDef, type ServiceRuntime, locationFilter } from '@bop/shared';
import type { PurchasingConfig } from '../config';
import { companySettings } from './settings';
import { purchaseOrderDto } from './dto';
import {
  approveOrderInTransaction,
  cancelOrderInTransaction,
  createOrderInTransaction,
  getOrder,
  listOrders,
  receiveOrderInTransaction,
  sendOrderInTransaction,
  type ActionContext,
} from './store';

/** Purchase orders (spec: Purchasing and ordering; supplement: Purchase order states). Reach: the order's location. */
export const ordersRoutes = (svc: ServiceRuntime<PurchasingConfig>): RouteDef[] => {
  const action = (ctx: { principal: ActionContext['actor']; reach: () => ActionContext['reach']; checkVersion: (v: number) => void }): ActionContext => ({
    actor: ctx.principal,
    now: svc.clock.now(),
    reach: ctx.reach(),
    checkVersion: (v) => ctx.checkVersion(v),
  });
  return [
    route('GET /purchase-orders', async (ctx) => {
      const inLocations = locationFilter(ctx.reach(), ctx.query.locationId);
      return { body: await listOrders(ctx.em, inLocations, ctx.query) };
    }),

    route('POST /purchase-orders', async (ctx) => {
      const reach = ctx.reach();
      const body = await createOrderInTransaction(ctx.em, ctx.body, reach, { actor: ctx.principal, now: svc.clock.now(), services: svc.services, requestId: ctx.requestId });
      return { status: 201, body, headers: { Location: `/api/v1/purchase-orders/${body.id}` } };
    }),

    route('GET /purchase-orders/{id}', async (ctx) => {
      const reach = ctx.reach();
      const order = await getOrder(ctx.em, ctx.params.id);
      assertLocationInReach(reach, order.locationId);
      return { body: purchaseOrderDto(order) };
    }),

    route('POST /purchase-orders/{id}:approve', async (ctx) => {
      const c = action(ctx);
      return { body: await approveOrderInTransaction(ctx.em, ctx.params.id, ctx.body.note ?? null, c) };
    }),

    // the approval threshold is read when sending: a change applies to the next order sent
    route('POST /purchase-orders/{id}:send', async (ctx) => {
      const c = action(ctx);
      const { purchaseOrderApprovalThreshold } = await companySettings(svc.services, ctx.requestId);
      return { body: await sendOrderInTransaction(ctx.em, ctx.params.id, purchaseOrderApprovalThreshold, c) };
    }),

    route('POST /purchase-orders/{id}:receive', async (ctx) => {
      const c = action(ctx);
      return { body: await receiveOrderInTransaction(ctx.em, ctx.params.id, ctx.body, c) };
    }),

    route('POST /purchase-orders/{id}:cancel', async (ctx) => {
      const c = action(ctx);
      return { body: await cancelOrderInTransaction(ctx.em, ctx.params.id, ctx.body.reason ?? null, c) };
    }),
  ];
};
