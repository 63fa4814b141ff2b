import Decimal from 'decimal.js';
import type { ReplenishmentAnswer, SuggestedOrder } from '@bop/contracts';
import { assertLocationInReach, callCommand, replicaLocationErrors, route, ValidationError, type RouteDef } from '@bop/shared';
import { fmtAmount, fmtQuantity } from '@bop/shared';
import { openOrderLines } from '../orders/store';
import { catalogLineDto } from '../suppliers/dto';
import { catalogOf, findSupplier } from '../suppliers/store';
import { suggestLine } from './compute';

const DAY_MS = 86_400_000;

/**
 * `GET /suggested-orders` (spec: Purchasing and ordering; contracts/src/purchasing/suggested.ts for
 * the arithmetic). Levels, par levels and recent usage come from inventory (`POST
 * /internal/replenishment`); what is on order from purchasing's own open orders of every supplier.
 */
export const suggestedRoutes = (): RouteDef[] => [
  route('GET /suggested-orders', async (ctx) => {
    const { supplierId, locationId, usageDays } = ctx.query;
    assertLocationInReach(ctx.reach(), locationId);
    const errors = await replicaLocationErrors(ctx, [{ id: locationId, path: 'locationId', takes: 'orders' }]);
    const supplier = await findSupplier(ctx, { id: supplierId });
    if (!supplier) errors.push({ path: 'supplierId', message: `No supplier ${supplierId}.` });
    else if (supplier.locationIds.length > 0 && !supplier.locationIds.includes(locationId)) errors.push({ path: 'supplierId', message: `Supplier ${supplierId} does not deliver to location ${locationId}.` });
    if (errors.length > 0 || !supplier) throw new ValidationError(errors);

    const now = ctx.now;
    const usageFrom = new Date(now.getTime() - usageDays * DAY_MS);
    const catalog = ((await catalogOf(ctx, supplier.id))?.lines ?? []).map((l) => catalogLineDto(l, supplier.defaultLeadTimeDays ?? null));
    const base: Omit<SuggestedOrder, 'lines' | 'total'> = { supplierId, locationId, usageDays, usageFrom: usageFrom.toISOString(), usageTo: now.toISOString(), generatedAt: now.toISOString() };
    if (catalog.length === 0) return { body: { ...base, lines: [], total: '0.00' } };

    const itemIds = catalog.map((l) => l.itemId);
    const figures = await callCommand<ReplenishmentAnswer>(
      ctx.services,
      'inventory',
      'POST',
      '/internal/replenishment',
      { locationId, itemIds, usageFrom: usageFrom.toISOString(), usageTo: now.toISOString() },
      { what: 'read stock levels and usage', ok: [200], requestId: ctx.requestId, fieldPrefix: '' },
    );
    const onOrder = new Map<string, Decimal>();
    const open = await openOrderLines(ctx, locationId);
    for (const order of open) {
      for (const l of order.lines) {
        const outstanding = Decimal.max(0, new Decimal(l.quantity).minus(l.receivedQuantity));
        if (outstanding.isZero()) continue;
        onOrder.set(l.itemId, (onOrder.get(l.itemId) ?? new Decimal(0)).plus(outstanding.times(l.baseQuantityPerPack)));
      }
    }
    const levels = new Map(figures.items.map((f) => [f.itemId, f]));
    const lines = catalog.map((line) => {
      const level = levels.get(line.itemId) ?? { onHand: '0', reserved: '0', available: '0', parLevel: null, usage: '0' };
      return suggestLine({ line, level, onOrder: fmtQuantity(onOrder.get(line.itemId) ?? 0), usageDays });
    });
    const total = lines.reduce((sum, l) => sum.plus(l.amount), new Decimal(0));
    return { body: { ...base, lines, total: fmtAmount(total) } };
  }),
];
