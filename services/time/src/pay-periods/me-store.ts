import Decimal from 'decimal.js';
import { employeeReadThrough, replicaPayRates, type Work } from '@bop/shared';
import { Timesheet } from '../timesheets/entities';
import { periodsById } from './store';
import { currencyDigits, payrollLines } from './payroll';
import { paidTimeOffHoursByDay } from '../time-off/request-store';
import type { TimeSettings } from '../settings/company-settings';

/**
 * `GET /me/pay`: the caller's rate history and, for their latest `limit` timesheets (newest first),
 * the hours and estimated gross as the payroll export would count them now. Rates are read through
 * from people first (a rate recorded a moment ago counts).
 */
export async function myPay(w: Work, employeeId: string, settings: TimeSettings, limit = 26) {
  await employeeReadThrough.read(w.em, w.schema, { ids: [employeeId], externalIds: [] }, () => true, w.services);
  const rates = (await replicaPayRates(w, [employeeId])).get(employeeId) ?? [];
  const sheets = await w.em.find(Timesheet, { employeeId }, { orderBy: { id: 'desc' }, limit });
  const periods = await periodsById(w, sheets.map((s) => s.payPeriodId));
  const digits = currencyDigits(settings.defaultCurrency);
  const timeOff = new Map<string, Record<string, string>>();
  for (const p of periods.values()) timeOff.set(p.id, (await paidTimeOffHoursByDay(w, [employeeId], p.start, p.end)).get(employeeId) ?? {});
  const rows = sheets.map((s) => {
    const p = periods.get(s.payPeriodId)!;
    const days = (s.figures?.days ?? []).map((d) => ({ date: d.date, regularHours: d.regularHours, overtime: d.overtime, shifts: d.shifts.map((x) => ({ start: x.start, position: x.position, workedHours: x.workedHours })) }));
    const lines = payrollLines(days, rates, { currencyDigits: digits, timeOffHours: timeOff.get(p.id) });
    const sum = (f: (l: (typeof lines)[number]) => Decimal.Value) => lines.reduce((n, l) => n.plus(f(l)), new Decimal(0));
    return {
      payPeriodId: p.id,
      startDate: p.start,
      endDate: p.end,
      timesheetStatus: s.status,
      regularHours: sum((l) => l.regularHours).toFixed(2),
      overtimeHours: sum((l) => Object.values(l.overtime).reduce((n, h) => n.plus(h), new Decimal(0))).toFixed(2),
      timeOffHours: sum((l) => l.timeOffHours).toFixed(2),
      estimatedGross: sum((l) => l.estimatedGross ?? 0).toFixed(digits),
    };
  });
  rows.sort((a, b) => (a.startDate < b.startDate ? 1 : -1));
  return { currency: settings.defaultCurrency, rates: rates.map((r) => ({ type: r.type, amount: r.amount, position: r.position, effectiveDate: r.effectiveDate })), periods: rows };
}
