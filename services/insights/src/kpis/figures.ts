import Decimal from 'decimal.js';

/** The sums a period's KPIs are made of, exact. */
export interface KpiSums {
  netSales: Decimal;
  transactions: number;
  laborHours: Decimal;
  laborCost: Decimal;
  scheduledHours: Decimal;
  scheduledCost: Decimal;
  wasteValue: Decimal;
  overShort: Decimal;
  /** the cost of the depletion of sales by recipes (what the sales should have used) */
  theoreticalFoodCost: Decimal;
  /** the cost of what was used: opening stock + receipts ± transfers − closing stock (see stock/usage.ts) */
  actualFoodCost: Decimal;
}

export const emptySums = (): KpiSums => ({ netSales: new Decimal(0), transactions: 0, laborHours: new Decimal(0), laborCost: new Decimal(0), scheduledHours: new Decimal(0), scheduledCost: new Decimal(0), wasteValue: new Decimal(0), overShort: new Decimal(0), theoreticalFoodCost: new Decimal(0), actualFoodCost: new Decimal(0) });

/** The sums of several locations (or days) together. */
export function sumOf(sums: Iterable<KpiSums>): KpiSums {
  const total = emptySums();
  for (const s of sums) {
    total.netSales = total.netSales.plus(s.netSales);
    total.transactions += s.transactions;
    total.laborHours = total.laborHours.plus(s.laborHours);
    total.laborCost = total.laborCost.plus(s.laborCost);
    total.scheduledHours = total.scheduledHours.plus(s.scheduledHours);
    total.scheduledCost = total.scheduledCost.plus(s.scheduledCost);
    total.wasteValue = total.wasteValue.plus(s.wasteValue);
    total.overShort = total.overShort.plus(s.overShort);
    total.theoreticalFoodCost = total.theoreticalFoodCost.plus(s.theoreticalFoodCost);
    total.actualFoodCost = total.actualFoodCost.plus(s.actualFoodCost);
  }
  return total;
}

const money = (d: Decimal) => d.toFixed(2, Decimal.ROUND_HALF_UP);
const ratio = (n: Decimal, d: Decimal.Value) => (new Decimal(d).isZero() ? null : n.div(d).toFixed(2, Decimal.ROUND_HALF_UP));

/**
 * The KPIs of a period from its exact sums, each rounded once, at the end: money to cents, hours to
 * hundredths, labor % = cost ÷ net sales × 100, SPLH = net sales ÷ labor hours, average check = net
 * sales ÷ transactions, scheduled labor % = scheduled cost ÷ net sales × 100, food cost % (theoretical
 * and actual) = food cost ÷ net sales × 100, prime cost = actual food cost + labor cost and prime cost %
 * = prime cost ÷ net sales × 100 (null when the divisor is zero).
 */
export function kpiFigures(s: KpiSums) {
  return {
    netSales: money(s.netSales),
    transactions: s.transactions,
    averageCheck: ratio(s.netSales, s.transactions),
    laborHours: s.laborHours.toFixed(2, Decimal.ROUND_HALF_UP),
    laborCost: money(s.laborCost),
    laborPercent: ratio(s.laborCost.times(100), s.netSales),
    salesPerLaborHour: ratio(s.netSales, s.laborHours),
    scheduledHours: s.scheduledHours.toFixed(2, Decimal.ROUND_HALF_UP),
    scheduledCost: money(s.scheduledCost),
    scheduledLaborPercent: ratio(s.scheduledCost.times(100), s.netSales),
    wasteValue: money(s.wasteValue),
    overShort: money(s.overShort),
    theoreticalFoodCost: money(s.theoreticalFoodCost),
    theoreticalFoodCostPercent: ratio(s.theoreticalFoodCost.times(100), s.netSales),
    actualFoodCost: money(s.actualFoodCost),
    actualFoodCostPercent: ratio(s.actualFoodCost.times(100), s.netSales),
    primeCost: money(s.actualFoodCost.plus(s.laborCost)),
    primeCostPercent: ratio(s.actualFoodCost.plus(s.laborCost).times(100), s.netSales),
  };
}

/** The KPIs insights does not model yet, with why: named in every answer, never estimated. */
export const UNAVAILABLE = [
  { kpi: 'guests', reason: 'sales transactions carry no guest count; only ingested day summaries do, and insights does not read them yet' },
] as const;

/**
 * The figures of `compare=forecast`: the forecast net sales (to the cent), transactions (two decimals:
 * a forecast is not a whole number) and average check (their ratio); null for every other figure, and
 * for these without a forecast.
 */
export function forecastFigures(f: { netSales: Decimal | null; transactions: Decimal | null }) {
  const none = Object.fromEntries(Object.keys(kpiFigures(emptySums())).map((k) => [k, null])) as { [K in keyof ReturnType<typeof kpiFigures>]: null };
  return {
    ...none,
    netSales: f.netSales ? money(f.netSales) : null,
    transactions: f.transactions ? f.transactions.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toNumber() : null,
    averageCheck: f.netSales && f.transactions ? ratio(f.netSales, f.transactions) : null,
  };
}
