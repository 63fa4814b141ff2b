import { BusinessDayEventObject } from '@bop/contracts';
import { defineConsumer, type ConsumerDef } from '@bop/shared';
import { saveClosedDay } from './store';

export const BUSINESS_DAY_CLOSED = 'cash.business_day_closed';
/** internal (no catalogue row): the cash service's `POST /cash/business-days/{locationId}/{date}:reopen` */
export const BUSINESS_DAY_REOPENED = 'cash.business_day_reopened';

/**
 * Keeps `sales.closed_days` from cash's business-day events (supplement: Business day states), so
 * the batch pipeline holds records of a closed day for review (spec: ingestion rule 7).
 */
export const closedDaysConsumer = defineConsumer({
  name: 'closed-days',
  topics: ['cash'],
  types: [BUSINESS_DAY_CLOSED, BUSINESS_DAY_REOPENED],
  async handle(ctx) {
    const { event } = ctx;
    const parsed = BusinessDayEventObject.safeParse(event.data.object);
    const expected = event.type === BUSINESS_DAY_CLOSED ? 'closed' : 'open';
    if (!parsed.success || parsed.data.status !== expected) {
      // a producer's bug: parked in dead_letters rather than dropped or guessed
      throw new Error(`${event.type} ${event.id}: data.object is not a business day with status ${expected}`);
    }
    const o = parsed.data;
    const closedAt = o.closedAt ? new Date(o.closedAt) : expected === 'closed' ? new Date(event.createdAt) : null;
    const reopenedAt = o.reopenedAt ? new Date(o.reopenedAt) : expected === 'open' ? new Date(event.createdAt) : null;
    await saveClosedDay(ctx, { locationId: o.locationId, businessDay: o.businessDay, status: expected, closedAt, reopenedAt, updatedAt: new Date(o.updatedAt) });
  },
});

export const reviewConsumers: ConsumerDef[] = [closedDaysConsumer];
