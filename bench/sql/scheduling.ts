import Decimal from 'decimal.js';
import { findPlain, lockForTransaction, type Work } from '@bop/shared';
import { schedulingService } from '@svc/scheduling';
import { SalesDemand, SalesInterval } from '@svc/scheduling/dist/demand/entities';
import { applySalesDemand, type SalesContribution } from '@svc/scheduling/dist/demand/sales-store';
import type { SqlCase } from './case';

/**
 * A busy store's sales demand: 20 locations, 30 days of 64 fifteen-minute intervals each (38,400
 * intervals) and 3,000 transactions a location already applied (60,000); the batch is 1,000 new
 * sales of one location over today's intervals (a sales batch of 1,000).
 */
const LOCATIONS = 20;
const DAYS = 30;
const INTERVALS = 64;
const loc = (i: number) => `loc_bench${String(i).padStart(4, '0')}`;
const DAY0 = Date.UTC(2026, 10, 1, 7, 0);
const interval = (day: number, k: number) => new Date(DAY0 + day * 86_400_000 + k * 900_000);

async function seed(write: <T>(fn: (w: Work) => Promise<T>) => Promise<T>): Promise<void> {
  for (let l = 0; l < LOCATIONS; l++) {
    await write(async (w) => {
      const intervals = [];
      for (let d = 0; d < DAYS; d++) for (let k = 0; k < INTERVALS; k++) intervals.push({ locationId: loc(l), intervalStart: interval(d, k), netSales: '152.3500', transactions: 11 });
      await w.em.insertMany(SalesInterval, intervals);
      await w.em.insertMany(
        SalesDemand,
        Array.from({ length: 3000 }, (_, t) => ({ transactionId: `txn_old${l}_${t}`, version: 1, locationId: loc(l), intervalStart: interval(t % DAYS, t % INTERVALS), netSales: '13.8500', transactions: 1 })),
      );
    });
  }
}

const batch: SalesContribution[] = Array.from({ length: 1000 }, (_, t) => ({
  transactionId: `txn_new${String(t).padStart(4, '0')}`,
  version: 1,
  locationId: loc(0),
  intervalStart: interval(DAYS, t % INTERVALS),
  netSales: (5 + (t % 40) * 1.25).toFixed(2),
  transactions: 1,
}));

/** what both forms answer (read after the write, the same read in each): the location's intervals of the batch's day */
const todaysIntervals = (w: Work) => findPlain(w.em, SalesInterval, { locationId: loc(0), intervalStart: { $gte: interval(DAYS, 0) } }, { orderBy: { intervalStart: 'asc' } });

/** scheduling's kept raw statements (cases named `scheduling.<what>`), each against its best ORM form. */
export const schedulingCases: SqlCase[] = [
  {
    name: 'scheduling.apply-sales-demand',
    what: 'a batch of 1,000 new sales of one location applied to its intervals (contributions kept per transaction)',
    service: schedulingService,
    seed,
    async raw(w) {
      await applySalesDemand(w, batch);
      return todaysIntervals(w);
    },
    async orm(w) {
      // the contributions read (the location's lock held), the newer written, the differences summed in code and the intervals upserted
      const latest = new Map<string, SalesContribution>();
      for (const c of batch) if ((latest.get(c.transactionId)?.version ?? -1) < c.version) latest.set(c.transactionId, c);
      const rows = [...latest.values()].sort((a, b) => (a.transactionId < b.transactionId ? -1 : 1));
      await lockForTransaction(w.em, [...new Set(rows.map((r) => `${w.schema}.sales_demand ${r.locationId}`))]);
      const before = new Map((await findPlain(w.em, SalesDemand, { transactionId: { $in: rows.map((r) => r.transactionId) } })).map((b) => [b.transactionId, b]));
      const written = rows.filter((r) => (before.get(r.transactionId)?.version ?? -1) < r.version);
      if (written.length === 0) return todaysIntervals(w);
      await w.em.upsertMany(SalesDemand, written.map((r) => ({ ...r })));
      const deltas = new Map<string, { locationId: string; intervalStart: Date; netSales: Decimal; transactions: number }>();
      const add = (locationId: string, intervalStart: Date, netSales: Decimal.Value, transactions: number) => {
        const k = `${locationId}|${intervalStart.getTime()}`;
        const d = deltas.get(k) ?? { locationId, intervalStart, netSales: new Decimal(0), transactions: 0 };
        d.netSales = d.netSales.plus(netSales);
        d.transactions += transactions;
        deltas.set(k, d);
      };
      for (const r of written) {
        add(r.locationId, r.intervalStart, r.netSales, r.transactions);
        const b = before.get(r.transactionId);
        if (b) add(b.locationId, b.intervalStart, new Decimal(b.netSales).neg(), -b.transactions);
      }
      const all = [...deltas.values()];
      const stored = await findPlain(w.em, SalesInterval, { locationId: { $in: [...new Set(all.map((d) => d.locationId))] }, intervalStart: { $in: [...new Set(all.map((d) => d.intervalStart.toISOString()))].map((s) => new Date(s)) } });
      const byKey = new Map(stored.map((s) => [`${s.locationId}|${s.intervalStart.getTime()}`, s]));
      await w.em.upsertMany(
        SalesInterval,
        all
          .sort((a, b) => (a.locationId < b.locationId ? -1 : a.locationId > b.locationId ? 1 : a.intervalStart.getTime() - b.intervalStart.getTime()))
          .map((d) => {
            const s = byKey.get(`${d.locationId}|${d.intervalStart.getTime()}`);
            return { locationId: d.locationId, intervalStart: d.intervalStart, netSales: d.netSales.plus(s?.netSales ?? 0).toFixed(4), transactions: d.transactions + (s?.transactions ?? 0) };
          }),
      );
      return todaysIntervals(w);
    },
  },
];
