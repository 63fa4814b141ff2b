import { defineConsumer, type ConsumerDef } from '@bop/shared';
import { applyWaste } from './store';
import { markAlertsDirty } from '../alerts/evaluation-store';
import { KPIS_MOVED_BY } from '../alerts/windows';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MONEY = /^-?\d{1,15}(\.\d{1,6})?$/;

/** What insights reads of inventory's `waste.recorded` (data.object: `id`, `locationId`, `businessDay`, `reason`, `totalValue`), or why it is not a waste record. */
export function wasteRecord(object: unknown): { id: string; locationId: string; businessDay: string; reason: string | null; totalValue: string } | string {
  const o = object as Record<string, unknown> | null;
  if (typeof o?.id !== 'string' || typeof o.locationId !== 'string') return 'id and locationId are required';
  if (typeof o.businessDay !== 'string' || !DAY.test(o.businessDay)) return 'businessDay';
  if (typeof o.totalValue !== 'string' || !MONEY.test(o.totalValue)) return 'totalValue';
  if (o.reason != null && typeof o.reason !== 'string') return 'reason';
  return { id: o.id, locationId: o.locationId, businessDay: o.businessDay, reason: (o.reason as string | null | undefined) ?? null, totalValue: o.totalValue };
}

export const wasteConsumer = defineConsumer({
  name: 'waste-read-model',
  topics: ['inventory'],
  types: ['waste.recorded'],
  async handle(ctx) {
    const parsed = wasteRecord(ctx.event.data.object);
    if (typeof parsed === 'string') throw new Error(`${ctx.event.type} ${ctx.event.id}: data.object is not a waste record (${parsed})`);
    await applyWaste(ctx, parsed);
    await markAlertsDirty(ctx, [parsed.locationId], KPIS_MOVED_BY.waste);
  },
});

export const wasteConsumers: ConsumerDef[] = [wasteConsumer];
