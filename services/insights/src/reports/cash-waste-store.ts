import Decimal from 'decimal.js';
import { ReportRangeParams } from '@bop/contracts';
import { OverShortDay } from '../cash/entities';
import { WasteRecord } from '../waste/entities';
import { defineReport, pageRows } from './registry';
import { dayText, money, rangeWhere } from './format';

export const overShort = defineReport({
  key: 'over-short',
  title: 'Over/short by location and day',
  description: "Counted − expected cash of each cash business day closed in the range, as cash locked it at the close (a reopened day: its latest close). Days still open are not listed.",
  params: ReportRangeParams,
  columns: [
    { name: 'businessDay', type: 'date', unit: null, description: 'the business day' },
    { name: 'locationId', type: 'text', unit: null, description: 'the location' },
    { name: 'overShort', type: 'money', unit: 'money', description: 'counted − expected (negative: short)' },
    { name: 'closedAt', type: 'text', unit: null, description: 'when the day was (last) closed, RFC 3339' },
  ],
  async run(w, p, page) {
    if (p.locationIds.length === 0) return { rows: [], nextCursor: null };
    const rows = await w.em.createQueryBuilder(OverShortDay).select(['locationId', 'businessDay', 'overShort', 'closedAt']).where(rangeWhere(p)).execute<Array<{ locationId: string; businessDay: string | Date; overShort: string; closedAt: string | Date }>>('all', true);
    return pageRows(rows, page, (r) => `${dayText(r.businessDay)}|${r.locationId}`, (r) => ({ businessDay: dayText(r.businessDay), locationId: r.locationId, overShort: money(r.overShort), closedAt: new Date(r.closedAt).toISOString() }));
  },
});

export const wasteByReason = defineReport({
  key: 'waste-by-reason',
  title: 'Waste by reason',
  description: "The value of the waste recorded at inventory per location and reason over the range (quantity × the average cost then), as `GET /inventory/waste` lists it. Waste kept before insights read reasons has the reason null.",
  params: ReportRangeParams,
  columns: [
    { name: 'locationId', type: 'text', unit: null, description: 'the location' },
    { name: 'reason', type: 'text', unit: null, description: "inventory's waste reason: spoiled, expired, damaged, overproduction, theft, other" },
    { name: 'records', type: 'integer', unit: null, description: 'waste records' },
    { name: 'wasteValue', type: 'money', unit: 'money', description: 'their total value' },
  ],
  async run(w, p, page) {
    if (p.locationIds.length === 0) return { rows: [], nextCursor: null };
    const rows = await w.em.createQueryBuilder(WasteRecord).select(['locationId', 'reason', 'totalValue']).where(rangeWhere(p)).execute<Array<{ locationId: string; reason: string | null; totalValue: string }>>('all', true);
    const groups = new Map<string, { locationId: string; reason: string | null; records: number; value: Decimal }>();
    for (const r of rows) {
      const key = `${r.locationId}|${r.reason ?? ''}`;
      const g = groups.get(key) ?? { locationId: r.locationId, reason: r.reason, records: 0, value: new Decimal(0) };
      g.records += 1;
      g.value = g.value.plus(r.totalValue);
      groups.set(key, g);
    }
    return pageRows([...groups], page, ([k]) => k, ([, g]) => ({ locationId: g.locationId, reason: g.reason, records: g.records, wasteValue: money(g.value) }));
  },
});
