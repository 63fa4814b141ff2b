import { assertLocationInReach, BadRequest, decodeCursor, pageLimit, reachableLocationIds, route, toPage, ValidationError, type RouteContext, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { InventoryConfig } from '../config';
import { listDocuments, recordAdjustment, recordWaste } from './documents-store';
import { configureLevel, listLevels } from './levels-store';
import { listMovements } from './movements-store';

/**
 * A quantity or value beyond numeric(20,6) that slipped past the line checks (e.g. an average cost
 * times a huge quantity) is the client's 422, not a 500; nothing was stored (the transaction rolled back).
 */
function rethrowOutOfRange(err: unknown): never {
  const code = (err as { code?: string; cause?: { code?: string } })?.code ?? (err as { cause?: { code?: string } })?.cause?.code;
  if (code === '22003') throw new ValidationError([{ path: 'lines', message: 'A quantity or value would exceed the ledger\u2019s range (14 digits before the decimal point).' }]);
  throw err;
}

/** A location filter of a list: out of reach is 403; none given lists every reachable location. */
function locationScope(ctx: RouteContext, locationId: string | undefined): string[] | null {
  const reach = ctx.reach();
  if (locationId) assertLocationInReach(reach, locationId);
  return reachableLocationIds(reach);
}

/** adjustments, waste, stock levels (with par level and reorder point) and the ledger */
export const stockRoutes = (svc: ServiceRuntime<InventoryConfig>): RouteDef[] => {
  const maxLines = svc.config.API_MAX_BATCH_SIZE;
  return [
    route('POST /inventory/adjustments', async (ctx) => {
      assertLocationInReach(ctx.reach(), ctx.body.locationId);
      const adjustment = await recordAdjustment(ctx, ctx.body, maxLines).catch(rethrowOutOfRange);
      return { status: 201, body: adjustment };
    }),

    route('GET /inventory/adjustments', async (ctx) => {
      const { limit, cursor, locationId, itemId, reason, from } = ctx.query;
      const reachable = locationScope(ctx, locationId);
      const n = pageLimit(limit);
      const rows = await listDocuments(ctx, { kind: 'adjustment', reachable, locationId, itemId, reason, from, after: decodeCursor(cursor), limit: n });
      return { body: toPage(rows, n, (r) => r) };
    }),

    route('POST /inventory/waste', async (ctx) => {
      assertLocationInReach(ctx.reach(), ctx.body.locationId);
      const record = await recordWaste(ctx, ctx.body, maxLines).catch(rethrowOutOfRange);
      return { status: 201, body: record };
    }),

    route('GET /inventory/waste', async (ctx) => {
      const { limit, cursor, locationId, itemId, reason, from } = ctx.query;
      const reachable = locationScope(ctx, locationId);
      const n = pageLimit(limit);
      const rows = await listDocuments(ctx, { kind: 'waste', reachable, locationId, itemId, reason, from, after: decodeCursor(cursor), limit: n });
      return { body: toPage(rows, n, (r) => r) };
    }),

    // spec: storefronts poll `updatedSince` instead of following stock.level_changed
    route('GET /stock-levels', async (ctx) => {
      const { limit, cursor, locationId, itemId, updatedSince, belowReorderPoint } = ctx.query;
      const reachable = locationScope(ctx, locationId);
      return { body: await listLevels(ctx, { reachable, locationId, itemId, updatedSince, belowReorderPoint, cursor, limit }) };
    }),

    route('POST /stock-levels:configure', async (ctx) => {
      assertLocationInReach(ctx.reach(), ctx.body.locationId);
      return { body: await configureLevel(ctx, ctx.body) };
    }),

    route('GET /stock-movements', async (ctx) => {
      const { limit, cursor, locationId, itemId, type, causeType, causeId, from, to } = ctx.query;
      const reachable = locationScope(ctx, locationId);
      if (causeId && !causeType) throw new BadRequest('The query parameters are not valid.', [{ path: 'causeType', message: 'Send causeType with causeId.' }]);
      if (from && to && Date.parse(to) <= Date.parse(from)) throw new BadRequest('The query parameters are not valid.', [{ path: 'to', message: 'Must be after from.' }]);
      const n = pageLimit(limit);
      const rows = await listMovements(ctx, { reachable, locationId, itemId, type, causeType, causeId, from, to, after: decodeCursor(cursor), limit: n });
      return { body: toPage(rows, n, (r) => r.movement) };
    }),
  ];
};
