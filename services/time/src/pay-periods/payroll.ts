import Decimal from 'decimal.js';
import { payRateInForce, splitDayHours, toCsv, type HoursSplit } from '@bop/shared';

/** A pay rate of the employee (people's, replicated): hourly per hour, salary per year. */
export interface Rate {
  id: string;
  type: 'hourly' | 'salary';
  amount: string;
  position: string | null;
  effectiveDate: string;
}

/** A day of a timesheet as the export reads it. */
export interface PayDay {
  date: string;
  regularHours: string;
  overtime: Record<string, string>;
  shifts: Array<{ start: string; position: string | null; workedHours: string }>;
}

export interface PayrollLine {
  position: string | null;
  rateType: 'hourly' | 'salary' | null;
  rate: string | null;
  from: string;
  to: string;
  regularHours: string;
  overtime: Record<string, string>;
  timeOffHours: string;
  estimatedGross: string | null;
}

/** The rate in force on a date for a position (the kit's rule, shared with scheduling's cost estimates). */
export const rateInForce = (rates: readonly Rate[], date: string, position: string | null): Rate | null => payRateInForce(rates, date, position);

/**
 * A day's regular and overtime hours by the position of each shift: hours are paid in the order
 * worked, so the day's regular hours go to its earliest shifts and its overtime (lower multipliers
 * first, as they accrue) to the latest.
 */
export function hoursByPosition(day: PayDay): Map<string | null, HoursSplit> {
  return splitDayHours(day, (s) => s.position);
}

const fmtHours = (d: Decimal) => d.toFixed(2);

/**
 * The payroll lines of one employee for a period: per position and rate in force (a rate changing
 * mid-period gives two lines, each with its days), regular and overtime hours, time off, and the
 * estimated gross of hourly rates (regular × rate + overtime × rate × multiplier + paid time off ×
 * rate), rounded half up to the currency's digits. Salaried lines carry hours, not a gross.
 */
export function payrollLines(days: readonly PayDay[], rates: readonly Rate[], opts: { currencyDigits: number; timeOffHours?: Record<string, string> }): PayrollLine[] {
  const lines = new Map<string, { position: string | null; rate: Rate | null; from: string; to: string; regular: Decimal; overtime: Map<string, Decimal>; timeOff: Decimal }>();
  const line = (position: string | null, rate: Rate | null, date: string) => {
    const key = `${position ?? ''}|${rate?.id ?? ''}`;
    const l = lines.get(key) ?? { position, rate, from: date, to: date, regular: new Decimal(0), overtime: new Map<string, Decimal>(), timeOff: new Decimal(0) };
    if (date < l.from) l.from = date;
    if (date > l.to) l.to = date;
    lines.set(key, l);
    return l;
  };
  for (const day of days) {
    for (const [position, h] of hoursByPosition(day)) {
      const l = line(position, rateInForce(rates, day.date, position), day.date);
      l.regular = l.regular.plus(h.regular);
      for (const [m, x] of h.overtime) l.overtime.set(m, (l.overtime.get(m) ?? new Decimal(0)).plus(x));
    }
  }
  for (const [date, hours] of Object.entries(opts.timeOffHours ?? {})) {
    const l = line(null, rateInForce(rates, date, null), date);
    l.timeOff = l.timeOff.plus(hours);
  }
  return [...lines.values()]
    .sort((a, b) => (a.from === b.from ? ((a.position ?? '') < (b.position ?? '') ? -1 : 1) : a.from < b.from ? -1 : 1))
    .map((l) => {
      const hourly = l.rate?.type === 'hourly' ? new Decimal(l.rate.amount) : null;
      let gross: Decimal | null = null;
      if (hourly) {
        gross = l.regular.plus(l.timeOff).times(hourly);
        for (const [m, x] of l.overtime) gross = gross.plus(x.times(hourly).times(m));
      }
      return {
        position: l.position,
        rateType: l.rate?.type ?? null,
        rate: l.rate?.amount ?? null,
        from: l.from,
        to: l.to,
        regularHours: fmtHours(l.regular),
        overtime: Object.fromEntries([...l.overtime].sort(([a], [b]) => Number(a) - Number(b)).map(([m, x]) => [m, fmtHours(x)])),
        timeOffHours: fmtHours(l.timeOff),
        estimatedGross: gross ? gross.toFixed(opts.currencyDigits, Decimal.ROUND_HALF_UP) : null,
      };
    });
}

/** Digits of a currency's minor unit (USD 2, JPY 0, BHD 3). */
export function currencyDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** The export as CSV: one row per employee, position and rate, overtime hours summed with their multipliers listed. */
export function payrollCsv(
  employees: ReadonlyArray<{ employeeId: string; employeeNumber: string | null; externalId: string | null; firstName: string; lastName: string; lines: PayrollLine[] }>,
  period: { startDate: string; endDate: string },
  currency: string,
): string {
  const header = ['periodStart', 'periodEnd', 'employeeId', 'employeeNumber', 'externalId', 'lastName', 'firstName', 'position', 'rateType', 'rate', 'from', 'to', 'regularHours', 'overtimeHours', 'overtimeByMultiplier', 'timeOffHours', 'estimatedGross', 'currency'] as const;
  const rows: Array<Record<(typeof header)[number], string | null>> = [];
  for (const e of employees) {
    for (const l of e.lines) {
      const overtime = Object.values(l.overtime).reduce((n, h) => n.plus(h), new Decimal(0));
      rows.push({
        periodStart: period.startDate,
        periodEnd: period.endDate,
        employeeId: e.employeeId,
        employeeNumber: e.employeeNumber,
        externalId: e.externalId,
        lastName: e.lastName,
        firstName: e.firstName,
        position: l.position,
        rateType: l.rateType,
        rate: l.rate,
        from: l.from,
        to: l.to,
        regularHours: l.regularHours,
        overtimeHours: fmtHours(overtime),
        overtimeByMultiplier: Object.entries(l.overtime)
          .map(([m, h]) => `${m}x:${h}`)
          .join(' '),
        timeOffHours: l.timeOffHours,
        estimatedGross: l.estimatedGross,
        currency,
      });
    }
  }
  // the kit's CSV writer: the same quoting and formula escaping as every other export
  return toCsv(rows, header);
}
