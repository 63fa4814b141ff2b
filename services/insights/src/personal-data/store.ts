import type { PersonalDataExportRequest, PersonalDataset } from '@bop/contracts';
import type { Work } from '@bop/shared';
import { LaborHours } from '../labor/entities';
import { ScheduledShift } from '../schedule/entities';
import { ReportExport, ReportSchedule } from '../reports/entities';
import { exportDto } from '../reports/exports-store';
import { scheduleDto } from '../reports/schedules-store';
import { dayText } from '../reports/format';
import { AlertRuleEntity } from '../alerts/entities';

/**
 * Insights' part of `GET /me/export`: what its read models hold per person — the employee's hours per
 * day, location and position (from time's timesheets) and their published shifts (from scheduling) —
 * and what the person's user account asked of insights: report exports, report schedules and the
 * alert rules they made. Sales, stock and cash read models are per location, not per person; the
 * replica of people's employees (pay rates) is people's own data (exported there).
 */
export async function insightsDatasets(w: Work, who: PersonalDataExportRequest): Promise<PersonalDataset[]> {
  const { em } = w;
  const { employeeId, userId } = who;
  if (!employeeId && !userId) return [];
  const hours = employeeId ? await em.find(LaborHours, { employeeId }, { orderBy: { businessDay: 'asc', id: 'asc' } }) : [];
  const shifts = employeeId ? await em.find(ScheduledShift, { employeeId }, { orderBy: { businessDay: 'asc', shiftId: 'asc' } }) : [];
  const exports = userId ? await em.find(ReportExport, { requestedByType: 'user', requestedById: userId }, { orderBy: { id: 'asc' } }) : [];
  const schedules = userId ? await em.find(ReportSchedule, { createdByType: 'user', createdById: userId }, { orderBy: { id: 'asc' } }) : [];
  const authors = [...(userId ? [{ type: 'user' as const, id: userId }] : []), ...(employeeId ? [{ type: 'employee' as const, id: employeeId }] : [])];
  const rules = authors.length > 0 ? await em.find(AlertRuleEntity, { $or: authors.map((a) => ({ createdBy: a })) }, { orderBy: { id: 'asc' } }) : [];
  return [
    {
      name: 'labor-hours',
      description: 'your hours per business day, location and position as counted for reports (from your timesheets): regular and overtime by multiplier',
      rows: hours.map((h) => ({ businessDay: dayText(h.businessDay), locationId: h.locationId, position: h.position ?? null, regularHours: h.regularHours, overtime: h.overtime, timesheetId: h.timesheetId })),
    },
    {
      name: 'scheduled-shifts',
      description: 'your shifts as scheduling announced them, counted as scheduled hours once published',
      rows: shifts.map((s) => ({ shiftId: s.shiftId, businessDay: dayText(s.businessDay), locationId: s.locationId, position: s.position ?? null, paidHours: s.paidHours, status: s.status })),
    },
    { name: 'report-exports', description: 'the report exports you requested', rows: exports.map(exportDto) },
    { name: 'report-schedules', description: 'the report schedules you made (and who they are e-mailed to)', rows: schedules.map(scheduleDto) },
    {
      name: 'alert-rules',
      description: 'the alert rules you made',
      rows: rules.map((r) => ({ id: r.id, name: r.name, kpi: r.kpi, operator: r.operator, threshold: r.threshold, status: r.status, createdAt: new Date(r.createdAt).toISOString(), archivedAt: r.archivedAt ? new Date(r.archivedAt).toISOString() : null })),
    },
  ];
}
