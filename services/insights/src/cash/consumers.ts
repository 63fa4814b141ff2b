import { defineConsumer, type ConsumerDef } from '@bop/shared';
import { applyClosedDay } from './store';
import { markAlertsDirty } from '../alerts/evaluation-store';
import { KPIS_MOVED_BY } from '../alerts/windows';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MONEY = /^-?\d{1,15}(\.\d{1,6})?$/;

/** What insights reads of cash's `cash.business_day_closed` (data.object: `locationId`, `businessDay`, `figures.overShort`), or why it is not a closed day. */
export function closedDay(object: unknown): { locationId: string; businessDay: string; overShort: string } | string {
  const o = object as { locationId?: unknown; businessDay?: unknown; figures?: { overShort?: unknown } } | null;
  if (typeof o?.locationId !== 'string') return 'locationId';
  if (typeof o.businessDay !== 'string' || !DAY.test(o.businessDay)) return 'businessDay';
  if (typeof o.figures?.overShort !== 'string' || !MONEY.test(o.figures.overShort)) return 'figures.overShort';
  return { locationId: o.locationId, businessDay: o.businessDay, overShort: o.figures.overShort };
}

/** Consumer of cash's `cash.business_day_closed`: each closed day's over/short (the close's instant orders a reopened day's closes). */
export const closedDayConsumer = defineConsumer({
  name: 'over-short-read-model',
  topics: ['cash'],
  types: ['cash.business_day_closed'],
  async handle(ctx) {
    const parsed = closedDay(ctx.event.data.object);
    if (typeof parsed === 'string') throw new Error(`${ctx.event.type} ${ctx.event.id}: data.object is not a closed business day (${parsed})`);
    await applyClosedDay(ctx, { ...parsed, closedAt: new Date(ctx.event.createdAt) });
    await markAlertsDirty(ctx, [parsed.locationId], KPIS_MOVED_BY.cash);
  },
});

export const cashConsumers: ConsumerDef[] = [closedDayConsumer];
