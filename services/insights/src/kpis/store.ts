import { BadRequest, OutOfReach, payRateInForce, reachableLocationIds, replicaPayRates, resolveLocations, type Work } from '@bop/shared';
import { InsightsLocation } from '../locations/entities';
import { SalesDay } from '../sales/entities';
import { LaborHours } from '../labor/entities';
import { ScheduledShift } from '../schedule/entities';
import { WasteRecord } from '../waste/entities';
import { OverShortDay } from '../cash/entities';
import { StockFlow } from '../stock/entities';
import { USED } from '../stock/usage';
import type { Flow } from '../stock/usage';
import { laborCost, paidHours } from '../labor/allocate';
import { emptySums, type KpiSums } from './figures';

type OrgUnitLocations = (on: Work, orgUnitIds: string[], opts?: { current?: boolean }) => Promise<string[]>;

/**
 * The locations a KPI request counts, within the caller's reach: the ones named (each known at
 * organization, else a 400 naming `locationId`; one out of reach 403), those of an org unit and the
 * units below it (all within reach, else 403), or every location the reach covers.
 */
export async function kpiLocations(w: Work, q: { locationId?: string[]; orgUnitId?: string }, inOrgUnits: OrgUnitLocations): Promise<string[]> {
  const reachable = reachableLocationIds(w.reach());
  const outside = (ids: string[]) => (reachable ? ids.filter((id) => !reachable.includes(id)) : []);
  if (q.locationId) {
    const known = await resolveLocations(w, q.locationId.map((locationId) => ({ locationId })));
    const unknown = q.locationId.filter((id) => !known.byId.has(id));
    if (unknown.length > 0) throw new BadRequest('The query parameters are not valid.', [{ path: 'locationId', message: `No location ${unknown.join(', ')}.` }]);
    const out = outside(q.locationId);
    if (out.length > 0) throw new OutOfReach(`Your permission does not reach location ${out.join(', ')}.`);
    return [...q.locationId].sort();
  }
  if (q.orgUnitId) {
    const ids = await inOrgUnits(w, [q.orgUnitId], { current: true });
    if (outside(ids).length > 0) throw new OutOfReach(`Your permission does not reach every location of org unit ${q.orgUnitId}.`);
    return [...ids].sort();
  }
  if (reachable) return [...reachable].sort();
  const all = await w.em.createQueryBuilder(InsightsLocation).select(['id']).orderBy({ id: 'asc' }).execute<Array<{ id: string }>>('all', true);
  return all.map((l) => l.id);
}

/**
 * The exact sums of each location over business days `from`..`to`: net sales and completed sales
 * from the sales read model, paid hours and their cost from the labor read model, each share of hours
 * priced at the pay rate in force on its day for its position (people's rates, replicated), and the
 * published shifts' paid hours, priced the same way at straight time, the value of waste recorded,
 * the over/short of the closed cash days, and the theoretical and actual food cost from the stock flows.
 */
export async function periodSums(w: Work, locationIds: string[], from: string, to: string): Promise<Map<string, KpiSums>> {
  const out = new Map(locationIds.map((id) => [id, emptySums()]));
  await groupedSums(w, locationIds, from, to, out, (locationId) => locationId);
  return out;
}

/**
 * The same sums per location and business day (`locationId|YYYY-MM-DD`), only the days with a figure:
 * the reports' rows by day are made of exactly what `GET /kpis` adds up.
 */
export async function daySums(w: Work, locationIds: string[], from: string, to: string): Promise<Map<string, KpiSums>> {
  const out = new Map<string, KpiSums>();
  await groupedSums(w, locationIds, from, to, out, (locationId, day) => `${locationId}|${day}`);
  return out;
}

/** Adds the figures of `locationIds` over `from`..`to` into `out`, grouped by `keyOf` (a missing group starts empty). */
async function groupedSums(w: Work, locationIds: string[], from: string, to: string, out: Map<string, KpiSums>, keyOf: (locationId: string, day: string) => string): Promise<void> {
  if (locationIds.length === 0) return;
  const at = (locationId: string, day: string | Date) => {
    const key = keyOf(locationId, dayOf(day));
    let s = out.get(key);
    if (!s) out.set(key, (s = emptySums()));
    return s;
  };
  const where = { locationId: { $in: locationIds }, businessDay: { $gte: from, $lte: to } };
  const days = await w.em
    .createQueryBuilder(SalesDay)
    .select(['locationId', 'businessDay', 'netSales', 'transactions'])
    .where(where)
    .execute<Array<{ locationId: string; businessDay: string | Date; netSales: string; transactions: number }>>('all', true);
  for (const d of days) {
    const s = at(d.locationId, d.businessDay);
    s.netSales = s.netSales.plus(d.netSales);
    s.transactions += Number(d.transactions);
  }
  const waste = await w.em
    .createQueryBuilder(WasteRecord)
    .select(['locationId', 'businessDay', 'totalValue'])
    .where(where)
    .execute<Array<{ locationId: string; businessDay: string | Date; totalValue: string }>>('all', true);
  for (const x of waste) {
    const s = at(x.locationId, x.businessDay);
    s.wasteValue = s.wasteValue.plus(x.totalValue);
  }
  const closed = await w.em
    .createQueryBuilder(OverShortDay)
    .select(['locationId', 'businessDay', 'overShort'])
    .where(where)
    .execute<Array<{ locationId: string; businessDay: string | Date; overShort: string }>>('all', true);
  for (const x of closed) {
    const s = at(x.locationId, x.businessDay);
    s.overShort = s.overShort.plus(x.overShort);
  }
  const flows = await w.em
    .createQueryBuilder(StockFlow)
    .select(['locationId', 'businessDay', 'flow', 'value'])
    .where({ ...where, flow: { $in: [...USED] } })
    .execute<Array<{ locationId: string; businessDay: string | Date; flow: Flow; value: string }>>('all', true);
  for (const f of flows) {
    // by its day too: the reports' rows by day (a location's key alone is not one of theirs)
    const s = at(f.locationId, f.businessDay);
    // flows are changes of on hand: what was used is what left, negated
    if (f.flow === 'sale') s.theoreticalFoodCost = s.theoreticalFoodCost.minus(f.value);
    s.actualFoodCost = s.actualFoodCost.minus(f.value);
  }
  const hours = await w.em
    .createQueryBuilder(LaborHours)
    .select(['employeeId', 'locationId', 'businessDay', 'position', 'regularHours', 'overtime'])
    .where(where)
    .execute<Array<{ employeeId: string; locationId: string; businessDay: string | Date; position: string | null; regularHours: string; overtime: Record<string, string> }>>('all', true);
  const shifts = await w.em
    .createQueryBuilder(ScheduledShift)
    .select(['locationId', 'businessDay', 'employeeId', 'position', 'paidHours'])
    .where({ ...where, status: 'published' })
    .execute<Array<{ locationId: string; businessDay: string | Date; employeeId: string | null; position: string | null; paidHours: string }>>('all', true);
  const rates = await replicaPayRates(w, [...new Set([...hours.map((h) => h.employeeId), ...shifts.flatMap((x) => (x.employeeId ? [x.employeeId] : []))])]);
  for (const h of hours) {
    const s = at(h.locationId, h.businessDay);
    const day = dayOf(h.businessDay);
    s.laborHours = s.laborHours.plus(paidHours({ regular: h.regularHours, overtime: h.overtime }));
    const cost = laborCost({ regular: h.regularHours, overtime: h.overtime }, payRateInForce(rates.get(h.employeeId) ?? [], day, h.position));
    if (cost) s.laborCost = s.laborCost.plus(cost);
  }
  for (const x of shifts) {
    const s = at(x.locationId, x.businessDay);
    s.scheduledHours = s.scheduledHours.plus(x.paidHours);
    // an open shift has hours but no one's rate yet
    const rate = x.employeeId ? payRateInForce(rates.get(x.employeeId) ?? [], dayOf(x.businessDay), x.position) : null;
    const cost = laborCost({ regular: x.paidHours, overtime: {} }, rate);
    if (cost) s.scheduledCost = s.scheduledCost.plus(cost);
  }
}

/** A `date` column as its calendar day (the query builder answers a string or a Date). */
export const dayOf = (d: string | Date) => (typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10));



