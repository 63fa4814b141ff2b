import type { FilterQuery } from '@mikro-orm/core';
import { NotFound, assertLocationInReach, decodeCursor, pageLimit, route, toPage, type RouteDef, type ServiceRuntime, locationFilter } from '@bop/shared';
import type { PurchasingConfig } from '../config';
import { companySettings } from './settings';
import { purchaseOrderDto } from './dto';
import { PurchaseOrderEntity } from './entities';
import { approveOrder, cancelOrder, createOrder, receiveOrder, sendOrder, type ActionContext } from './store';

/** Purchase orders (spec: Purchasing and ordering; supplement: Purchase order states). Reach: the order's location. */
export const ordersRoutes = (svc: ServiceRuntime<PurchasingConfig>): RouteDef[] => {
  const action = (ctx: { principal: ActionContext['actor']; reach: () => ActionContext['reach']; checkVersion: (v: number) => void }): ActionContext => ({
    actor: ctx.principal,
    now: new Date(),
    reach: ctx.reach(),
    checkVersion: (v) => ctx.checkVersion(v),
  });
  return [
    route('GET /purchase-orders', async (ctx) => {
      const { limit, cursor, status, supplierId, locationId, number, updatedSince } = ctx.query;
      const reach = ctx.reach();
      const inLocations = locationFilter(reach, locationId);
      const where: FilterQuery<PurchaseOrderEntity>[] = [];
      const after = decodeCursor(cursor);
      if (after) where.push({ id: { $gt: after } });
      if (inLocations) where.push({ locationId: inLocations });
      if (status) where.push({ status });
      if (supplierId) where.push({ supplierId });
      if (number) where.push({ number });
      if (updatedSince) where.push({ updatedAt: { $gte: new Date(updatedSince) } });
      const n = pageLimit(limit);
      const rows = await ctx.em.find(PurchaseOrderEntity, { $and: where }, { orderBy: { id: 'asc' }, limit: n + 1 });
      return { body: toPage(rows, n, purchaseOrderDto) };
    }),

    route('POST /purchase-orders', async (ctx) => {
      const reach = ctx.reach();
      const body = await ctx.em.transactional((em) => createOrder(em, ctx.body, reach, { actor: ctx.principal, now: new Date(), services: svc.services, requestId: ctx.requestId }));
      return { status: 201, body, headers: { Location: `/api/v1/purchase-orders/${body.id}` } };
    }),

    route('GET /purchase-orders/{id}', async (ctx) => {
      const reach = ctx.reach();
      const order = await ctx.em.findOne(PurchaseOrderEntity, { id: ctx.params.id });
      if (!order) throw new NotFound('purchase order', ctx.params.id);
      assertLocationInReach(reach, order.locationId);
      return { body: purchaseOrderDto(order) };
    }),

    route('POST /purchase-orders/{id}:approve', async (ctx) => {
      const c = action(ctx);
      return { body: await ctx.em.transactional((em) => approveOrder(em, ctx.params.id, ctx.body.note ?? null, c)) };
    }),

    // the approval threshold is read when sending: a change applies to the next order sent
    route('POST /purchase-orders/{id}:send', async (ctx) => {
      const c = action(ctx);
      const { purchaseOrderApprovalThreshold } = await companySettings(svc.services, ctx.requestId);
      return { body: await ctx.em.transactional((em) => sendOrder(em, ctx.params.id, purchaseOrderApprovalThreshold, c)) };
    }),

    route('POST /purchase-orders/{id}:receive', async (ctx) => {
      const c = action(ctx);
      return { body: await ctx.em.transactional((em) => receiveOrder(em, ctx.params.id, ctx.body, c)) };
    }),

    route('POST /purchase-orders/{id}:cancel', async (ctx) => {
      const c = action(ctx);
      return { body: await ctx.em.transactional((em) => cancelOrder(em, ctx.params.id, ctx.body.reason ?? null, c)) };
    }),
  ];
};
