import type { PeriodRow } from '../pay-periods/store';
import type { Timesheet } from './entities';

const ZERO_TOTALS = { workedHours: '0.00', regularHours: '0.00', overtime: {}, paidBreakHours: '0.00', unpaidBreakHours: '0.00' };
const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/** A timesheet with its totals and exceptions; `current` false while a change waits to be counted. */
export function timesheetDto(t: Timesheet, period: PeriodRow, current: boolean) {
  return {
    id: t.id,
    employeeId: t.employeeId,
    payPeriodId: t.payPeriodId,
    periodStart: period.start,
    periodEnd: period.end,
    locationId: t.locationId,
    status: t.status,
    current,
    calculatedAt: iso(t.calculatedAt),
    missingPunches: t.missingPunches,
    totals: t.figures?.totals ?? ZERO_TOTALS,
    exceptions: t.figures?.exceptions ?? [],
    approvedAt: iso(t.approvedAt),
    approvedBy: (t.approvedBy ?? null) as never,
    rejectedAt: iso(t.rejectedAt),
    rejectedBy: (t.rejectedBy ?? null) as never,
    rejectionReason: t.rejectionReason ?? null,
    version: t.version,
    createdAt: iso(t.createdAt)!,
    updatedAt: iso(t.updatedAt)!,
  };
}

/** With the daily hours (each date of the period) and the workweeks. */
export function timesheetDetailDto(t: Timesheet, period: PeriodRow, current: boolean) {
  return { ...timesheetDto(t, period, current), days: t.figures?.days ?? [], weeks: t.figures?.weeks ?? [] };
}
