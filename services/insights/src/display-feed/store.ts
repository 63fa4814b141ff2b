import { LockMode } from '@mikro-orm/core';
import type { Work } from '@bop/shared';
import { InsightsLocation } from '../locations/entities';
import { periodSums } from '../kpis/store';
import { emptySums, kpiFigures } from '../kpis/figures';
import { businessDayAt } from '../alerts/windows';
import { DisplayFeed } from './entities';

/** A location's KPIs are sent to its team displays at most once per this many ms (a burst of sales is one update). */
export const DISPLAY_FEED_THROTTLE_MS = 5_000;

/** The event communication stores as display metrics (source `insights`). */
export const DISPLAY_KPIS_EVENT = 'insights.display_kpis.updated';

/**
 * The display metrics fed from the KPIs, by stable name: today's (the location's business day so far)
 * net sales, completed sales, labor % and sales per labor hour. A ratio with a zero divisor (no sales
 * or no hours yet) is left out rather than shown as 0.
 */
export const DISPLAY_KPIS = [
  { name: 'insights.net_sales_today', label: 'Sales today', unit: null, of: (f: ReturnType<typeof kpiFigures>) => f.netSales },
  { name: 'insights.transactions_today', label: 'Transactions today', unit: null, of: (f: ReturnType<typeof kpiFigures>) => String(f.transactions) },
  { name: 'insights.labor_percent_today', label: 'Labor % today', unit: '%', of: (f: ReturnType<typeof kpiFigures>) => f.laborPercent },
  { name: 'insights.splh_today', label: 'Sales per labor hour', unit: null, of: (f: ReturnType<typeof kpiFigures>) => f.salesPerLaborHour },
] as const;

/** Marks the locations whose sales or hours moved (in the consumer's transaction): the worker sends their KPIs. */
export async function markDisplayFeedDirty(w: Work, locationIds: Iterable<string>): Promise<void> {
  const ids = [...new Set(locationIds)];
  if (ids.length === 0) return;
  await w.em
    .createQueryBuilder(DisplayFeed)
    .insert(ids.map((locationId) => ({ locationId, dirty: true, markedAt: w.now, sentAt: null })))
    .onConflict(['locationId'])
    .merge(['dirty'])
    .execute();
}

/** The marked locations not sent within the throttle, oldest mark first. */
export async function dueFeeds(w: Work, limit: number): Promise<string[]> {
  const sentBefore = new Date(w.now.getTime() - DISPLAY_FEED_THROTTLE_MS);
  const rows = await w.em.find(DisplayFeed, { dirty: true, $or: [{ sentAt: null }, { sentAt: { $lte: sentBefore } }] }, { orderBy: { markedAt: 'asc' }, limit, fields: ['locationId'] });
  return rows.map((r) => r.locationId);
}

/**
 * Sends one location's KPIs of today as `insights.display_kpis.updated` and clears its mark; another
 * process sending it (skip locked), or a send within the throttle, leaves it alone.
 */
export async function sendFeed(w: Work, locationId: string): Promise<boolean> {
  const [feed] = await w.em.find(DisplayFeed, { locationId, dirty: true }, { lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE });
  if (!feed || (feed.sentAt && w.now.getTime() - feed.sentAt.getTime() < DISPLAY_FEED_THROTTLE_MS)) return false;
  feed.dirty = false;
  feed.sentAt = w.now;
  const location = await w.em.findOne(InsightsLocation, { id: locationId });
  if (location) {
    const { today } = businessDayAt(location, w.now);
    const figures = kpiFigures((await periodSums(w, [locationId], today, today)).get(locationId) ?? emptySums());
    const metrics = DISPLAY_KPIS.flatMap((k) => {
      const value = k.of(figures);
      return value === null ? [] : [{ name: k.name, value, unit: k.unit, label: k.label }];
    });
    w.emit({ type: DISPLAY_KPIS_EVENT, aggregateType: 'location', aggregateId: locationId, locationId, object: { locationId, businessDay: today, measuredAt: w.now.toISOString(), metrics } });
  }
  await w.em.flush();
  return true;
}
