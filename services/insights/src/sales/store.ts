import Decimal from 'decimal.js';
import { lockForTransaction, type Work } from '@bop/shared';
import type { SalesContributionInput } from './contributions';
import { SalesChannelDay, SalesContribution, SalesDay, SalesInterval, SalesItemDay } from './entities';

interface Delta {
  locationId: string;
  businessDay: string;
  intervalStart?: Date;
  netSales: Decimal;
  transactions: number;
}

interface ItemDelta {
  locationId: string;
  businessDay: string;
  itemKey: string;
  itemId: string | null;
  itemName: string | null;
  quantity: Decimal;
  netSales: Decimal;
}

const add = (into: Map<string, Delta>, key: string, base: Omit<Delta, 'netSales' | 'transactions'>, netSales: Decimal.Value, transactions: number) => {
  const d = into.get(key) ?? { ...base, netSales: new Decimal(0), transactions: 0 };
  d.netSales = d.netSales.plus(netSales);
  d.transactions += transactions;
  into.set(key, d);
};

/**
 * Applies sales' transactions to the net sales and counts per location and business day and per
 * 15-minute interval, and (for the reports) per day by item and by channel and source: a transaction's newer version takes back what its older one added (another day
 * or interval when it moved, nothing once voided); an older or repeated one changes nothing. The
 * batches of one location are applied one at a time (a lock per location), so no two read the same
 * contribution before either replaces it.
 */
export async function applySales(w: Work, incoming: SalesContributionInput[]): Promise<void> {
  const { em } = w;
  const latest = new Map<string, SalesContributionInput>();
  for (const c of incoming) if ((latest.get(c.transactionId)?.version ?? -1) < c.version) latest.set(c.transactionId, c);
  if (latest.size === 0) return;
  await lockForTransaction(em, [...new Set([...latest.values()].map((c) => `${w.schema}.sales ${c.locationId}`))]);
  const held = new Map((await em.find(SalesContribution, { transactionId: { $in: [...latest.keys()] } })).map((h) => [h.transactionId, h]));
  const days = new Map<string, Delta>();
  const intervals = new Map<string, Delta>();
  const items = new Map<string, ItemDelta>();
  const channels = new Map<string, Delta & { channel: string; source: string }>();
  const count = (c: Pick<SalesContribution, 'locationId' | 'businessDay' | 'intervalStart' | 'netSales' | 'transactions' | 'channel' | 'source' | 'items'>, sign: 1 | -1) => {
    const net = new Decimal(c.netSales).times(sign);
    add(days, `${c.locationId}|${c.businessDay}`, { locationId: c.locationId, businessDay: c.businessDay }, net, sign * c.transactions);
    add(intervals, `${c.locationId}|${c.businessDay}|${c.intervalStart.toISOString()}`, { locationId: c.locationId, businessDay: c.businessDay, intervalStart: c.intervalStart }, net, sign * c.transactions);
    // counted before the item and channel read models existed: they hold nothing of it to take back
    if (!c.items) return;
    const channel = c.channel ?? '';
    const source = c.source ?? '';
    const ck = `${c.locationId}|${c.businessDay}|${channel}|${source}`;
    const cd = channels.get(ck) ?? { locationId: c.locationId, businessDay: c.businessDay, channel, source, netSales: new Decimal(0), transactions: 0 };
    cd.netSales = cd.netSales.plus(net);
    cd.transactions += sign * c.transactions;
    channels.set(ck, cd);
    for (const it of c.items) {
      const ik = `${c.locationId}|${c.businessDay}|${it.key}`;
      const d = items.get(ik) ?? { locationId: c.locationId, businessDay: c.businessDay, itemKey: it.key, itemId: it.itemId, itemName: it.name, quantity: new Decimal(0), netSales: new Decimal(0) };
      d.quantity = d.quantity.plus(new Decimal(it.quantity).times(sign));
      d.netSales = d.netSales.plus(new Decimal(it.netSales).times(sign));
      if (sign === 1 && it.name !== null) d.itemName = it.name;
      items.set(ik, d);
    }
  };
  for (const c of latest.values()) {
    const h = held.get(c.transactionId);
    if (h && h.version >= c.version) continue;
    if (h) {
      count({ ...h, intervalStart: new Date(h.intervalStart) }, -1);
      Object.assign(h, { version: c.version, locationId: c.locationId, businessDay: c.businessDay, intervalStart: c.intervalStart, netSales: c.netSales, transactions: c.transactions, channel: c.channel, source: c.source, items: c.items });
    } else {
      em.create(SalesContribution, { ...c });
    }
    count(c, 1);
  }
  if (days.size === 0) return;
  const heldDays = await em.find(SalesDay, { $or: [...days.values()].map((d) => ({ locationId: d.locationId, businessDay: d.businessDay })) });
  const dayRows = new Map(heldDays.map((d) => [`${d.locationId}|${d.businessDay}`, d]));
  for (const [key, d] of days) {
    const row = dayRows.get(key);
    if (row) Object.assign(row, { netSales: new Decimal(row.netSales).plus(d.netSales).toFixed(), transactions: row.transactions + d.transactions });
    else em.create(SalesDay, { locationId: d.locationId, businessDay: d.businessDay, netSales: d.netSales.toFixed(), transactions: d.transactions });
  }
  const heldIntervals = await em.find(SalesInterval, { $or: [...intervals.values()].map((d) => ({ locationId: d.locationId, businessDay: d.businessDay, intervalStart: d.intervalStart! })) });
  const intervalRows = new Map(heldIntervals.map((d) => [`${d.locationId}|${d.businessDay}|${new Date(d.intervalStart).toISOString()}`, d]));
  for (const [key, d] of intervals) {
    const row = intervalRows.get(key);
    if (row) Object.assign(row, { netSales: new Decimal(row.netSales).plus(d.netSales).toFixed(), transactions: row.transactions + d.transactions });
    else em.create(SalesInterval, { locationId: d.locationId, businessDay: d.businessDay, intervalStart: d.intervalStart!, netSales: d.netSales.toFixed(), transactions: d.transactions });
  }
  if (channels.size > 0) {
    const held = await em.find(SalesChannelDay, { $or: [...channels.values()].map((d) => ({ locationId: d.locationId, businessDay: d.businessDay, channel: d.channel, source: d.source })) });
    const rows = new Map(held.map((d) => [`${d.locationId}|${d.businessDay}|${d.channel}|${d.source}`, d]));
    for (const [key, d] of channels) {
      const row = rows.get(key);
      if (row) Object.assign(row, { netSales: new Decimal(row.netSales).plus(d.netSales).toFixed(), transactions: row.transactions + d.transactions });
      else em.create(SalesChannelDay, { locationId: d.locationId, businessDay: d.businessDay, channel: d.channel, source: d.source, netSales: d.netSales.toFixed(), transactions: d.transactions });
    }
  }
  if (items.size > 0) {
    const held = await em.find(SalesItemDay, { $or: [...items.values()].map((d) => ({ locationId: d.locationId, businessDay: d.businessDay, itemKey: d.itemKey })) });
    const rows = new Map(held.map((d) => [`${d.locationId}|${d.businessDay}|${d.itemKey}`, d]));
    for (const [key, d] of items) {
      const row = rows.get(key);
      if (row) Object.assign(row, { quantity: new Decimal(row.quantity).plus(d.quantity).toFixed(), netSales: new Decimal(row.netSales).plus(d.netSales).toFixed(), itemName: d.itemName ?? row.itemName, itemId: d.itemId ?? row.itemId });
      else em.create(SalesItemDay, { locationId: d.locationId, businessDay: d.businessDay, itemKey: d.itemKey, itemId: d.itemId, itemName: d.itemName, quantity: d.quantity.toFixed(), netSales: d.netSales.toFixed() });
    }
  }
  await em.flush();
}
