import Decimal from 'decimal.js';
import { DateTime } from 'luxon';
import { ReportRangeParams } from '@bop/contracts';
import type { Work } from '@bop/shared';
import { SalesChannelDay, SalesDay, SalesInterval, SalesItemDay } from '../sales/entities';
import { InsightsLocation } from '../locations/entities';
import { defineReport, pageRows, type ReportColumn } from './registry';
import { dayText, decimal2, money, rangeWhere } from './format';

const NET_SALES: ReportColumn = { name: 'netSales', type: 'money', unit: 'money', description: 'completed sales (refunds subtract) net of discounts, before tax, as `GET /kpis` counts them' };
const TRANSACTIONS: ReportColumn = { name: 'transactions', type: 'integer', unit: null, description: 'completed sales, refunds not counted' };
const LOCATION: ReportColumn = { name: 'locationId', type: 'text', unit: null, description: 'the location' };
const DAY: ReportColumn = { name: 'businessDay', type: 'date', unit: null, description: 'the business day' };

export const salesByDay = defineReport({
  key: 'sales-by-day',
  title: 'Sales by day',
  description: 'Net sales, completed sales and average check per location and business day (days with sales only).',
  params: ReportRangeParams,
  columns: [DAY, LOCATION, NET_SALES, TRANSACTIONS, { name: 'averageCheck', type: 'money', unit: 'money', description: 'netSales ÷ transactions (null without transactions)' }],
  async run(w, p, page) {
    if (p.locationIds.length === 0) return { rows: [], nextCursor: null };
    const rows = await w.em.createQueryBuilder(SalesDay).select(['locationId', 'businessDay', 'netSales', 'transactions']).where(rangeWhere(p)).execute<Array<{ locationId: string; businessDay: string | Date; netSales: string; transactions: number }>>('all', true);
    return pageRows(
      rows.filter((r) => !new Decimal(r.netSales).isZero() || Number(r.transactions) !== 0),
      page,
      (r) => `${dayText(r.businessDay)}|${r.locationId}`,
      (r) => ({ businessDay: dayText(r.businessDay), locationId: r.locationId, netSales: money(r.netSales), transactions: Number(r.transactions), averageCheck: Number(r.transactions) === 0 ? null : money(new Decimal(r.netSales).div(r.transactions)) }),
    );
  },
});

export const salesByHour = defineReport({
  key: 'sales-by-hour',
  title: 'Sales by hour',
  description: "Net sales and completed sales per location, business day and hour of the location's local time (the hour a sale occurred in; hours with sales only).",
  params: ReportRangeParams,
  columns: [DAY, LOCATION, { name: 'hour', type: 'text', unit: null, description: "the local hour's start, HH:00 (the location's time zone)" }, NET_SALES, TRANSACTIONS],
  async run(w, p, page) {
    if (p.locationIds.length === 0) return { rows: [], nextCursor: null };
    const zones = await locationZones(w, p.locationIds);
    const rows = await w.em.createQueryBuilder(SalesInterval).select(['locationId', 'businessDay', 'intervalStart', 'netSales', 'transactions']).where(rangeWhere(p)).execute<Array<{ locationId: string; businessDay: string | Date; intervalStart: string | Date; netSales: string; transactions: number }>>('all', true);
    const hours = new Map<string, { businessDay: string; locationId: string; hour: string; netSales: Decimal; transactions: number }>();
    for (const r of rows) {
      const day = dayText(r.businessDay);
      const local = DateTime.fromJSDate(new Date(r.intervalStart), { zone: zones.get(r.locationId) ?? 'UTC' }).startOf('hour');
      const hour = local.toFormat('HH:00');
      // by the hour's instant: a day runs from its cut-off, so its hours after midnight sort after the evening's
      const key = `${day}|${r.locationId}|${local.toUTC().toISO()}`;
      const h = hours.get(key) ?? { businessDay: day, locationId: r.locationId, hour, netSales: new Decimal(0), transactions: 0 };
      h.netSales = h.netSales.plus(r.netSales);
      h.transactions += Number(r.transactions);
      hours.set(key, h);
    }
    const keyed = [...hours].filter(([, h]) => !h.netSales.isZero() || h.transactions !== 0);
    return pageRows(keyed, page, ([k]) => k, ([, h]) => ({ businessDay: h.businessDay, locationId: h.locationId, hour: h.hour, netSales: money(h.netSales), transactions: h.transactions }));
  },
});

export const salesByItem = defineReport({
  key: 'sales-by-item',
  title: 'Sales by item',
  description:
    "Quantity and net sales per location and item over the range, from the sales' lines (quantity × unit price − discount). Lines naming no item, and what a subtotal holds beyond its lines (a refund sent without lines), are the row without an item: the rows add up to net sales.",
  params: ReportRangeParams,
  columns: [
    LOCATION,
    { name: 'itemId', type: 'text', unit: null, description: "sales' item id (null when the line named the item only by SKU, external id, barcode or name)" },
    { name: 'item', type: 'text', unit: null, description: 'the reference the lines named it by (`id:`, `sku:`, `ext:`, `barcode:`, `name:`); empty for the row without an item' },
    { name: 'itemName', type: 'text', unit: null, description: 'the name the latest line gave' },
    { name: 'quantity', type: 'decimal', unit: null, description: 'units sold (refunds subtract)' },
    NET_SALES,
  ],
  async run(w, p, page) {
    if (p.locationIds.length === 0) return { rows: [], nextCursor: null };
    const rows = await w.em.createQueryBuilder(SalesItemDay).select(['locationId', 'itemKey', 'itemId', 'itemName', 'quantity', 'netSales', 'businessDay']).where(rangeWhere(p)).execute<Array<{ locationId: string; businessDay: string | Date; itemKey: string; itemId: string | null; itemName: string | null; quantity: string; netSales: string }>>('all', true);
    const items = new Map<string, { locationId: string; itemKey: string; itemId: string | null; itemName: string | null; latest: string; quantity: Decimal; netSales: Decimal }>();
    for (const r of rows) {
      const key = `${r.locationId}|${r.itemKey}`;
      const day = dayText(r.businessDay);
      const it = items.get(key) ?? { locationId: r.locationId, itemKey: r.itemKey, itemId: r.itemId, itemName: r.itemName, latest: day, quantity: new Decimal(0), netSales: new Decimal(0) };
      it.quantity = it.quantity.plus(r.quantity);
      it.netSales = it.netSales.plus(r.netSales);
      if (day >= it.latest && r.itemName) Object.assign(it, { latest: day, itemName: r.itemName });
      items.set(key, it);
    }
    const kept = [...items].filter(([, it]) => !it.netSales.isZero() || !it.quantity.isZero());
    return pageRows(kept, page, ([k]) => k, ([, it]) => ({ locationId: it.locationId, itemId: it.itemId, item: it.itemKey, itemName: it.itemName, quantity: decimal2(it.quantity), netSales: money(it.netSales) }));
  },
});

export const salesByChannel = defineReport({
  key: 'sales-by-channel',
  title: 'Sales by channel',
  description: "Net sales and completed sales per location, channel (the transaction's `channel`) and source (the sending system's label) over the range.",
  params: ReportRangeParams,
  columns: [
    LOCATION,
    { name: 'channel', type: 'text', unit: null, description: "the transactions' channel (null: none sent)" },
    { name: 'source', type: 'text', unit: null, description: 'the batch source label the POS sent them under' },
    NET_SALES,
    TRANSACTIONS,
  ],
  async run(w, p, page) {
    if (p.locationIds.length === 0) return { rows: [], nextCursor: null };
    const rows = await w.em.createQueryBuilder(SalesChannelDay).select(['locationId', 'channel', 'source', 'netSales', 'transactions']).where(rangeWhere(p)).execute<Array<{ locationId: string; channel: string; source: string; netSales: string; transactions: number }>>('all', true);
    const groups = new Map<string, { locationId: string; channel: string; source: string; netSales: Decimal; transactions: number }>();
    for (const r of rows) {
      const key = `${r.locationId}|${r.channel}|${r.source}`;
      const g = groups.get(key) ?? { locationId: r.locationId, channel: r.channel, source: r.source, netSales: new Decimal(0), transactions: 0 };
      g.netSales = g.netSales.plus(r.netSales);
      g.transactions += Number(r.transactions);
      groups.set(key, g);
    }
    const kept = [...groups].filter(([, g]) => !g.netSales.isZero() || g.transactions !== 0);
    return pageRows(kept, page, ([k]) => k, ([, g]) => ({ locationId: g.locationId, channel: g.channel === '' ? null : g.channel, source: g.source, netSales: money(g.netSales), transactions: g.transactions }));
  },
});

async function locationZones(w: Work, ids: string[]): Promise<Map<string, string>> {
  const rows = await w.em.find(InsightsLocation, { id: { $in: ids } }, { fields: ['id', 'timezone'] });
  return new Map(rows.map((l) => [l.id, l.timezone]));
}
