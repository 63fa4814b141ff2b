import Decimal from 'decimal.js';
import { payRateInForce, replicaPayRates, sqlQuery, type Work } from '@bop/shared';
import { USED } from '../stock/usage';
import { laborCost } from '../labor/allocate';
import { emptySums, type KpiSums } from './figures';

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
  await groupedSums(w, locationIds, from, to, out, (locationId, day) => `${locationId}|${day}`, true);
  return out;
}

/** One summed group of `groupedSums`' statement: a read model's sums of a location (and day), labor by employee, position and rate period. */
interface SumRow {
  kind: 'sales' | 'waste' | 'over_short' | 'flow_sale' | 'flow_other' | 'labor' | 'overtime' | 'shift';
  location_id: string;
  /** the business day, when summed by day */
  business_day: string | null;
  employee_id: string | null;
  position: string | null;
  /** labor and shifts of an employee whose pay rates change within the range: the first day of the rate period summed; else null */
  split_day: string | null;
  /** overtime: its multiplier */
  multiplier: string | null;
  amount: string;
  n: string;
}

/**
 * Adds the figures of `locationIds` over `from`..`to` into `out`, grouped by `keyOf` (a missing group
 * starts empty). The rows are summed by Postgres, by location (and day): 200 locations over 90 days
 * are some 18,000 rows a read model and 150,000 of hours, summed in one statement instead of read one
 * by one. Hours are summed by employee and position over the range — by rate period for an employee
 * with a pay rate starting within it — and priced here at the rate in force (a cost is linear in hours,
 * so the sum priced once is exact to the cent).
 */
async function groupedSums(w: Work, locationIds: string[], from: string, to: string, out: Map<string, KpiSums>, keyOf: (locationId: string, day: string) => string, byDay = false): Promise<void> {
  if (locationIds.length === 0) return;
  const at = (locationId: string, day: string | null) => {
    const key = keyOf(locationId, day ?? from);
    let s = out.get(key);
    if (!s) out.set(key, (s = emptySums()));
    return s;
  };
  const schema = `"${w.schema}"`;
  const day = byDay ? `to_char(x."business_day", 'YYYY-MM-DD')` : 'null::text';
  const range = `x."location_id" = any(?::text[]) and x."business_day" between ?::date and ?::date`;
  const group = byDay ? 'x."location_id", x."business_day"' : 'x."location_id"';
  const plain = (kind: SumRow['kind'], table: string, amount: string, n: string, extra = '') =>
    `select '${kind}' as "kind", x."location_id", ${day} as "business_day", null::text as "employee_id", null::text as "position", null::text as "split_day", null::text as "multiplier", ${amount} as "amount", ${n} as "n"
     from ${schema}."${table}" x where ${range}${extra} group by ${group}`;
  // an employee with a pay rate starting within the range is summed by rate period — from each such
  // start to the day before the next (none of the employee's rates starts inside one, so each
  // position's rate in force is the same on every day of it) — any other over the range
  const split = byDay ? 'null::date' : 'p."start"';
  const periods = byDay ? '' : ` left join periods p on p."employee_id" = x."employee_id" and x."business_day" between p."start" and p."end"`;
  const labor = (kind: SumRow['kind'], table: string, amount: string, extra: string, multiplier = 'null::text', lateral = '') =>
    `select '${kind}', x."location_id", ${day}, x."employee_id", x."position", to_char(${split}, 'YYYY-MM-DD'), ${multiplier}, ${amount}, count(*)::text
     from ${schema}."${table}" x${periods}${lateral}
     where ${range}${extra} group by ${group}, x."employee_id", x."position", ${split}${multiplier === 'null::text' ? '' : `, ${multiplier}`}`;
  const parts = [
    plain('sales', 'sales_days', 'sum(x."net_sales")::text', 'sum(x."transactions")::text'),
    plain('waste', 'waste_records', 'sum(x."total_value")::text', "'0'"),
    plain('over_short', 'over_short_days', 'sum(x."over_short")::text', "'0'"),
    plain('flow_sale', 'stock_flows', 'sum(x."value")::text', "'0'", ` and x."flow" = 'sale'`),
    plain('flow_other', 'stock_flows', 'sum(x."value")::text', "'0'", ` and x."flow" in (${[...USED].filter((f) => f !== 'sale').map((f) => `'${f}'`).join(', ')})`),
    labor('labor', 'labor_hours', 'sum(x."regular_hours")::text', ''),
    labor('overtime', 'labor_hours', 'sum(o."value"::numeric)::text', '', 'o."key"', ' cross join lateral jsonb_each_text(x."overtime") o'),
    labor('shift', 'scheduled_shifts', 'sum(x."paid_hours")::text', ` and x."status" = 'published'`),
  ];
  // raw SQL (bench:sql insights.kpi-sums): 200,000 µs against 1,146,000 through the ORM (5.7×: every row of the range read and summed in code,
  // where one statement sums them by location); by rate period 1,450 rows come back to price where by day 14,650 did (360,000 µs)
  const rows = await sqlQuery<SumRow>(
    w.em,
    `with changes as (select distinct "employee_id", "effective_date" as "start" from ${schema}."pay_rates" where "effective_date" > ?::date and "effective_date" <= ?::date),
     periods as (select "employee_id", "start", coalesce(lead("start") over (partition by "employee_id" order by "start") - 1, ?::date) as "end" from changes)
     ${parts.join('\n     union all\n     ')}`,
    [from, to, to, ...parts.flatMap(() => [locationIds, from, to])],
  );
  const employees = [...new Set(rows.flatMap((r) => (r.employee_id ? [r.employee_id] : [])))];
  const rates = await replicaPayRates(w, employees);
  // an employee's hours of one location (and day), position and rate period: regular and overtime by multiplier
  const hours = new Map<string, { row: SumRow; regular: Decimal; overtime: Map<string, Decimal> }>();
  const hoursOf = (r: SumRow) => {
    const key = `${r.location_id}|${r.business_day ?? ''}|${r.employee_id}|${r.position ?? ''}|${r.split_day ?? ''}`;
    let h = hours.get(key);
    if (!h) hours.set(key, (h = { row: r, regular: new Decimal(0), overtime: new Map() }));
    return h;
  };
  // the rate in force on the group's day, else on any day of the range: the same on each when no rate of the employee starts within it
  const rateOf = (r: SumRow) => (r.employee_id ? payRateInForce(rates.get(r.employee_id) ?? [], r.split_day ?? r.business_day ?? from, r.position) : null);
  for (const r of rows) {
    const s = at(r.location_id, r.business_day);
    switch (r.kind) {
      case 'sales':
        s.netSales = s.netSales.plus(r.amount);
        s.transactions += Number(r.n);
        break;
      case 'waste':
        s.wasteValue = s.wasteValue.plus(r.amount);
        break;
      case 'over_short':
        s.overShort = s.overShort.plus(r.amount);
        break;
      // flows are changes of on hand: what was used is what left, negated
      case 'flow_sale':
        s.theoreticalFoodCost = s.theoreticalFoodCost.minus(r.amount);
        s.actualFoodCost = s.actualFoodCost.minus(r.amount);
        break;
      case 'flow_other':
        s.actualFoodCost = s.actualFoodCost.minus(r.amount);
        break;
      case 'labor':
        hoursOf(r).regular = new Decimal(r.amount);
        break;
      case 'overtime':
        hoursOf(r).overtime.set(r.multiplier!, new Decimal(r.amount));
        break;
      case 'shift': {
        s.scheduledHours = s.scheduledHours.plus(r.amount);
        // an open shift has hours but no one's rate yet
        const cost = laborCost({ regular: r.amount, overtime: {} }, rateOf(r));
        if (cost) s.scheduledCost = s.scheduledCost.plus(cost);
        break;
      }
    }
  }
  for (const { row, regular, overtime } of hours.values()) {
    const s = at(row.location_id, row.business_day);
    s.laborHours = [...overtime.values()].reduce((n, h) => n.plus(h), s.laborHours.plus(regular));
    const cost = laborCost({ regular, overtime }, rateOf(row));
    if (cost) s.laborCost = s.laborCost.plus(cost);
  }
}

/** A `date` column as its calendar day (the query builder answers a string or a Date). */
export const dayOf = (d: string | Date) => (typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10));



