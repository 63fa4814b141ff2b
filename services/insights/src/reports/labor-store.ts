import Decimal from 'decimal.js';
import { ReportRangeParams } from '@bop/contracts';
import { addDays } from '@bop/shared';
import { LaborHours } from '../labor/entities';
import { paidHours } from '../labor/allocate';
import { InsightsEmployee } from '../employees/entities';
import { daySums } from '../kpis/store';
import { kpiFigures, type KpiSums } from '../kpis/figures';
import { defineReport, pageRows } from './registry';
import { dayText, decimal2, money } from './format';

/** A labor-vs-sales row's key in page order (`day|locationId`) from daySums' `locationId|day`. */
const pageKey = (k: string) => `${k.slice(k.lastIndexOf('|') + 1)}|${k.slice(0, k.lastIndexOf('|'))}`;

export const laborVsSales = defineReport({
  key: 'labor-vs-sales',
  title: 'Labor vs sales',
  description: 'Per location and business day: net sales, hours worked and their cost, labor %, sales per labor hour, and the published schedule’s hours and cost — each figure exactly what `GET /kpis` answers for that location and day (days with a figure only).',
  params: ReportRangeParams,
  columns: [
    { name: 'businessDay', type: 'date', unit: null, description: 'the business day' },
    { name: 'locationId', type: 'text', unit: null, description: 'the location' },
    { name: 'netSales', type: 'money', unit: 'money', description: 'as `GET /kpis` netSales' },
    { name: 'laborHours', type: 'decimal', unit: 'h', description: 'hours worked from the timesheets' },
    { name: 'laborCost', type: 'money', unit: 'money', description: 'regular hours × the hourly rate in force + overtime hours × rate × multiplier' },
    { name: 'laborPercent', type: 'decimal', unit: '%', description: 'laborCost ÷ netSales × 100 (null without sales)' },
    { name: 'salesPerLaborHour', type: 'money', unit: 'money per h', description: 'netSales ÷ laborHours, SPLH (null without hours)' },
    { name: 'scheduledHours', type: 'decimal', unit: 'h', description: 'paid hours of the published shifts' },
    { name: 'scheduledCost', type: 'money', unit: 'money', description: 'scheduled hours of assigned shifts × the hourly rate in force (straight time)' },
    { name: 'scheduledLaborPercent', type: 'decimal', unit: '%', description: 'scheduledCost ÷ netSales × 100 (null without sales)' },
  ],
  async run(w, p, page) {
    // the rows go by day, then location: only the days of this page are summed, from the cursor's day on, a few more each time until the page
    // has a row past its end (or the range ends); a page of 100 over 200 locations sums one day, not the whole range
    const after = page.after === null ? null : page.after.slice(0, 10);
    let first = after ?? p.from;
    let days = Math.max(1, Math.ceil((page.limit + 1) / Math.max(1, p.locationIds.length)));
    const kept: Array<[string, KpiSums]> = [];
    let past = 0;
    while (first <= p.to) {
      const last = addDays(first, days - 1) < p.to ? addDays(first, days - 1) : p.to;
      for (const row of await daySums(w, p.locationIds, first, last)) {
        const [, s] = row;
        if (s.netSales.isZero() && s.laborHours.isZero() && s.laborCost.isZero() && s.scheduledHours.isZero() && s.scheduledCost.isZero()) continue;
        kept.push(row);
        if (page.after === null || pageKey(row[0]) > page.after) past++;
      }
      if (past > page.limit) break;
      first = addDays(last, 1);
      days *= 2;
    }
    // daySums keys are `locationId|day`
    return pageRows(
      kept,
      page,
      ([k]) => pageKey(k),
      ([k, s]) => {
        const f = kpiFigures(s);
        return {
          businessDay: k.slice(k.lastIndexOf('|') + 1),
          locationId: k.slice(0, k.lastIndexOf('|')),
          netSales: f.netSales,
          laborHours: f.laborHours,
          laborCost: f.laborCost,
          laborPercent: f.laborPercent,
          salesPerLaborHour: f.salesPerLaborHour,
          scheduledHours: f.scheduledHours,
          scheduledCost: f.scheduledCost,
          scheduledLaborPercent: f.scheduledLaborPercent,
        };
      },
    );
  },
});

export const timesheetSummary = defineReport({
  key: 'timesheet-summary',
  title: 'Timesheet summary by employee and position',
  description:
    "Hours worked per employee and position at the chosen locations over the range, from time's calculated timesheets: regular and overtime hours and their cost at the rate in force, as `GET /kpis` and time's payroll export price them. A salaried employee's hours have no hourly cost (0.00).",
  params: ReportRangeParams,
  columns: [
    { name: 'employeeId', type: 'text', unit: null, description: 'the employee' },
    { name: 'employeeName', type: 'text', unit: null, description: 'first and last name (people’s, replicated)' },
    { name: 'position', type: 'text', unit: null, description: 'the position worked (null: none named)' },
    { name: 'days', type: 'integer', unit: null, description: 'business days with hours' },
    { name: 'regularHours', type: 'decimal', unit: 'h', description: 'regular hours' },
    { name: 'overtimeHours', type: 'decimal', unit: 'h', description: 'overtime hours, every multiplier' },
    { name: 'paidHours', type: 'decimal', unit: 'h', description: 'regular + overtime hours (as `GET /kpis` laborHours)' },
    { name: 'laborCost', type: 'money', unit: 'money', description: 'regular × rate + overtime × rate × multiplier, at the hourly rate in force each day for the position' },
  ],
  async run(w, p, page) {
    if (p.locationIds.length === 0) return { rows: [], nextCursor: null };
    const hours = await w.em
      .createQueryBuilder(LaborHours)
      .select(['employeeId', 'businessDay', 'position', 'regularHours', 'overtime', 'cost'])
      .where({ locationId: { $in: p.locationIds }, businessDay: { $gte: p.from, $lte: p.to } })
      .execute<Array<{ employeeId: string; businessDay: string | Date; position: string | null; regularHours: string; overtime: Record<string, string>; cost: string | null }>>('all', true);
    const employeeIds = [...new Set(hours.map((h) => h.employeeId))];
    const names = new Map((employeeIds.length ? await w.em.find(InsightsEmployee, { id: { $in: employeeIds } }, { fields: ['id', 'firstName', 'lastName'] }) : []).map((e) => [e.id, `${e.firstName} ${e.lastName}`]));
    const groups = new Map<string, { employeeId: string; position: string | null; days: Set<string>; regular: Decimal; paid: Decimal; cost: Decimal }>();
    for (const h of hours) {
      const key = `${h.employeeId}|${h.position ?? ''}`;
      const g = groups.get(key) ?? { employeeId: h.employeeId, position: h.position, days: new Set<string>(), regular: new Decimal(0), paid: new Decimal(0), cost: new Decimal(0) };
      g.days.add(dayText(h.businessDay));
      g.regular = g.regular.plus(h.regularHours);
      g.paid = g.paid.plus(paidHours({ regular: h.regularHours, overtime: h.overtime }));
      // priced as written, at the rate in force on its day for its position (null: none hourly)
      if (h.cost !== null) g.cost = g.cost.plus(h.cost);
      groups.set(key, g);
    }
    return pageRows([...groups], page, ([k]) => k, ([, g]) => ({
      employeeId: g.employeeId,
      employeeName: names.get(g.employeeId) ?? null,
      position: g.position,
      days: g.days.size,
      regularHours: decimal2(g.regular),
      overtimeHours: decimal2(g.paid.minus(g.regular)),
      paidHours: decimal2(g.paid),
      laborCost: money(g.cost),
    }));
  },
});
