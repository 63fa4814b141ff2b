import type { Work } from '@bop/shared';
import { PAY_RATE_REPLICA } from '@bop/shared/dist/replica-entities';
import { insightsService } from '@svc/insights';
import { SalesDay } from '@svc/insights/dist/sales/entities';
import { LaborDay, LaborHours } from '@svc/insights/dist/labor/entities';
import { ScheduledShift, ShiftDay } from '@svc/insights/dist/schedule/entities';
import { WasteRecord } from '@svc/insights/dist/waste/entities';
import { OverShortDay } from '@svc/insights/dist/cash/entities';
import { FlowDay, StockFlow } from '@svc/insights/dist/stock/entities';
import { USED } from '@svc/insights/dist/stock/usage';
import { periodSums } from '@svc/insights/dist/kpis/store';
import { emptySums, kpiFigures, type KpiSums } from '@svc/insights/dist/kpis/figures';
import type { SqlCase } from './case';

/**
 * A chain's quarter in insights' read models: 50 locations × 90 business days, each day a sales row, a
 * waste record, a closed cash day, 8 employees' hours (every other one with overtime) and published
 * shifts, and 8 items' stock flows (sold daily, counted and received weekly); the employees' hourly
 * rates, a third of them raised in the quarter. `GET /kpis` of every location over the 90 days
 * (bench/kpis.ts reads the same at 200 locations).
 */
const LOCATIONS = 50;
const DAYS = 90;
const EMPLOYEES = 8;
const ITEMS = 8;
const loc = (i: number) => `loc_kpi${String(i).padStart(4, '0')}`;
const dayOf = (d: number) => new Date(Date.UTC(2026, 7, 3) + d * 86_400_000).toISOString().slice(0, 10);
const FROM = dayOf(0);
const TO = dayOf(DAYS - 1);
const locations = Array.from({ length: LOCATIONS }, (_, l) => loc(l));

async function seed(write: <T>(fn: (w: Work) => Promise<T>) => Promise<T>): Promise<void> {
  for (let l = 0; l < LOCATIONS; l++) {
    await write(async (w) => {
      const emp = (e: number) => `emp_kpi${l}_${e}`;
      const position = (e: number) => ['cook', 'server', 'host'][e % 3];
      await w.em.insertMany(
        PAY_RATE_REPLICA,
        Array.from({ length: EMPLOYEES }, (_, e) => [
          { id: `rate_kpi${l}_${e}_0`, employeeId: emp(e), type: 'hourly', amount: String(15 + (e % 5)), position: null, effectiveDate: '2026-01-01' },
          ...(e % 3 === 0 ? [{ id: `rate_kpi${l}_${e}_1`, employeeId: emp(e), type: 'hourly', amount: String(16.5 + (e % 5)), position: position(e), effectiveDate: dayOf(10 * (e % 6)) }] : []),
        ]).flat() as never[],
      );
      const days = Array.from({ length: DAYS }, (_, d) => dayOf(d));
      await w.em.insertMany(SalesDay, days.map((day, d) => ({ locationId: loc(l), businessDay: day, netSales: (2400 + ((l * 7 + d * 13) % 500) + 0.35).toFixed(2), transactions: 68 + (d % 9) })));
      await w.em.insertMany(WasteRecord, days.map((day) => ({ id: `waste_${l}_${day}`, locationId: loc(l), businessDay: day, totalValue: String(3 + (l % 7)), reason: 'spoiled' })) as never[]);
      await w.em.insertMany(OverShortDay, days.map((day) => ({ locationId: loc(l), businessDay: day, overShort: String(((l % 5) - 2) / 4), closedAt: new Date(`${day}T09:00:00Z`) })));
      await w.em.insertMany(
        LaborHours,
        days.flatMap((day) => Array.from({ length: EMPLOYEES }, (_, e) => ({ id: `${emp(e)}|${day}`, timesheetId: `${emp(e)}|ts`, employeeId: emp(e), locationId: loc(l), businessDay: day, position: position(e), regularHours: String(4.5 + (e % 4) * 0.5), overtime: e % 2 ? { '1.5': '0.75' } : {} }))),
      );
      await w.em.insertMany(
        ScheduledShift,
        days.flatMap((day) => Array.from({ length: EMPLOYEES + 1 }, (_, e) => ({ shiftId: `shift_${l}_${e}_${day}`, version: 1, locationId: loc(l), businessDay: day, employeeId: e < EMPLOYEES ? emp(e) : null, position: position(e), paidHours: String(5 + (e % 4) * 0.5), status: 'published' }))) as never[],
      );
      await w.em.insertMany(
        StockFlow,
        days.flatMap((day, d) =>
          Array.from({ length: ITEMS }, (_, i) => [
            { flow: 'sale', quantity: String(-(10 + i)), value: String(-(10 + i) * (2 + i)) },
            ...(d % 7 === 0 ? [{ flow: 'count', quantity: '-1', value: String(-(2 + i)) }] : []),
            ...(d % 7 === 1 ? [{ flow: 'receipt', quantity: String(70 + 7 * i), value: String((70 + 7 * i) * (2 + i)) }] : []),
          ].map((f) => ({ id: `${loc(l)}|${day}|item-${i}|${f.flow}`, locationId: loc(l), businessDay: day, itemId: `item-${i}`, unvalued: 0, ...f }))).flat(),
        ),
      );
    });
  }
  // a busy store's tables have been analyzed (autovacuum does after such inserts): the plans are those of production
  await write((w) => w.em.getConnection().execute('analyze'));
}

/** what `GET /kpis` answers per location */
const figures = (sums: Map<string, KpiSums>) => Object.fromEntries([...sums].map(([id, s]) => [id, kpiFigures(s)]));

/** The sums as the query builder reads them: every day-sums row of the range, summed in code. */
async function ormSums(w: Work, locationIds: string[], from: string, to: string): Promise<Map<string, KpiSums>> {
  const out = new Map(locationIds.map((id) => [id, emptySums()]));
  const where = { locationId: { $in: locationIds }, businessDay: { $gte: from, $lte: to } };
  for (const d of await w.em.createQueryBuilder(SalesDay).select(['locationId', 'netSales', 'transactions']).where(where).execute<Array<{ locationId: string; netSales: string; transactions: number }>>('all', true)) {
    const s = out.get(d.locationId)!;
    s.netSales = s.netSales.plus(d.netSales);
    s.transactions += Number(d.transactions);
  }
  for (const x of await w.em.createQueryBuilder(WasteRecord).select(['locationId', 'totalValue']).where(where).execute<Array<{ locationId: string; totalValue: string }>>('all', true)) {
    const s = out.get(x.locationId)!;
    s.wasteValue = s.wasteValue.plus(x.totalValue);
  }
  for (const x of await w.em.createQueryBuilder(OverShortDay).select(['locationId', 'overShort']).where(where).execute<Array<{ locationId: string; overShort: string }>>('all', true)) {
    const s = out.get(x.locationId)!;
    s.overShort = s.overShort.plus(x.overShort);
  }
  for (const f of await w.em.createQueryBuilder(FlowDay).select(['locationId', 'flow', 'value']).where({ ...where, flow: { $in: [...USED] } }).execute<Array<{ locationId: string; flow: string; value: string }>>('all', true)) {
    const s = out.get(f.locationId)!;
    if (f.flow === 'sale') s.theoreticalFoodCost = s.theoreticalFoodCost.minus(f.value);
    s.actualFoodCost = s.actualFoodCost.minus(f.value);
  }
  for (const d of await w.em.createQueryBuilder(LaborDay).select(['locationId', 'hours', 'cost']).where(where).execute<Array<{ locationId: string; hours: string; cost: string }>>('all', true)) {
    const s = out.get(d.locationId)!;
    s.laborHours = s.laborHours.plus(d.hours);
    s.laborCost = s.laborCost.plus(d.cost);
  }
  for (const d of await w.em.createQueryBuilder(ShiftDay).select(['locationId', 'hours', 'cost']).where(where).execute<Array<{ locationId: string; hours: string; cost: string }>>('all', true)) {
    const s = out.get(d.locationId)!;
    s.scheduledHours = s.scheduledHours.plus(d.hours);
    s.scheduledCost = s.scheduledCost.plus(d.cost);
  }
  return out;
}

/** insights' kept raw statements (cases named `insights.<what>`), each against its best ORM form. */
export const insightsCases: SqlCase[] = [
  {
    name: 'insights.kpi-sums',
    what: `GET /kpis' sums of ${LOCATIONS} locations over ${DAYS} days (sales, waste, cash, and the day sums of stock flows, hours and shifts)`,
    service: insightsService,
    seed,
    async raw(w) {
      return figures(await periodSums(w, locations, FROM, TO));
    },
    async orm(w) {
      return figures(await ormSums(w, locations, FROM, TO));
    },
  },
];
