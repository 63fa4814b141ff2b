import { Item, MovementsPostedObject, StockLevel } from '@bop/contracts';
import { defineConsumer, type ConsumerDef } from '@bop/shared';
import { eventObject } from './event-object';
import { applyItem, applyLevel, applyMovementsPosted } from './store';
import { flowOf, USED } from './usage';
import { markAlertsDirty } from '../alerts/evaluation-store';
import { KPIS_MOVED_BY } from '../alerts/windows';

/**
 * Consumer of inventory's internal `inventory.movements.posted`: stock flows per location, business
 * day, item and flow. A posting that uses stock (a sale's depletion, waste, a count's variance, an
 * adjustment) moves the food cost KPIs: the rules watching them at its location are marked.
 */
export const stockFlowConsumer = defineConsumer({
  name: 'stock-flow-read-model',
  topics: ['inventory'],
  types: ['inventory.movements.posted'],
  async handle(ctx) {
    const posting = eventObject(MovementsPostedObject, ctx.event, 'a posting');
    await applyMovementsPosted(ctx, posting);
    const uses = posting.sums.some((x) => {
      const flow = flowOf(x.type, x.reason);
      return x.businessDay !== null && flow !== null && USED.has(flow);
    });
    if (uses) await markAlertsDirty(ctx, [posting.locationId], KPIS_MOVED_BY.stock);
  },
});

const ItemObject = Item.pick({ id: true, name: true, baseUnit: true, updatedAt: true });

/** Consumer of inventory's `stock.level_changed` (on hand, average cost and value) and `item.created` / `item.updated` (names). */
export const stockLevelConsumer = defineConsumer({
  name: 'stock-level-read-model',
  topics: ['inventory'],
  types: ['stock.level_changed', 'item.created', 'item.updated'],
  async handle(ctx) {
    const { event } = ctx;
    if (event.type === 'stock.level_changed') return applyLevel(ctx, eventObject(StockLevel, event, 'a stock level'));
    return applyItem(ctx, eventObject(ItemObject, event, 'an item'));
  },
});

export const stockConsumers: ConsumerDef[] = [stockFlowConsumer, stockLevelConsumer];
