/**
 * Insights' part of the personal-data export: what its read models hold per employee (hours from
 * timesheets, scheduled shifts) and what the person's account asked of insights (report exports and
 * schedules, alert rules). The rows are stored as insights' consumers and endpoints store them (the
 * ORM); test/personal-data-export.test.ts shows them reach the ZIP from real timesheets.
 */
import { person, startTestService, system, type TestService } from '@bop/test-support';
import type { Principal } from '@bop/shared';
import { insightsService } from '../src';
import { LaborHours } from '../src/labor/entities';
import { ScheduledShift } from '../src/schedule/entities';
import { ReportExport, ReportSchedule } from '../src/reports/entities';
import { AlertRuleEntity } from '../src/alerts/entities';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(insightsService, {}, { workers: false });
});
afterAll(async () => {
  await t?.close();
});

const exportData = (body: Record<string, unknown>, as: Principal = system) => t.call('POST', '/internal/personal-data:export', { as, body });
const DATASETS = ['labor-hours', 'scheduled-shifts', 'report-exports', 'report-schedules', 'alert-rules'];
const at = new Date('2026-12-01T09:00:00Z');

/** One of everything insights keeps about a person (`n`: their employee `emp_<n>`, user `usr_<n>`). */
async function holdings(n: string): Promise<void> {
  const em = t.svc.runtime.orm.em.fork();
  em.create(LaborHours, { id: `lbh_${n}`, timesheetId: `tsh_${n}`, employeeId: `emp_${n}`, locationId: 'loc_1', businessDay: '2026-11-30', position: 'Cook', regularHours: '7.5000', overtime: { '1.5': '1.0000' } });
  em.create(ScheduledShift, { shiftId: `shf_${n}`, version: 1, locationId: 'loc_1', businessDay: '2026-12-02', employeeId: `emp_${n}`, position: 'Cook', paidHours: '8.0000', status: 'published' });
  em.create(ReportExport, { id: `rex_${n}`, reportKey: 'sales-by-day', parameters: { from: '2026-11-01', to: '2026-11-30' }, locationIds: ['loc_1'], format: 'csv', status: 'queued', rows: null, attachmentId: null, fileName: null, error: null, requestedByType: 'user', requestedById: `usr_${n}`, createdAt: at, startedAt: null, completedAt: null, scheduleId: null });
  em.create(ReportSchedule, { id: `rsc_${n}`, reportKey: 'sales-by-day', parameters: {}, locationIds: ['loc_1'], format: 'csv', every: 'weekly', recipients: [`${n}@example.com`], status: 'active', nextFrom: '2026-11-30', nextTo: '2026-12-06', nextRunAt: at, lastExportId: null, createdByType: 'user', createdById: `usr_${n}`, createdAt: at, updatedAt: at });
  em.create(AlertRuleEntity, { id: `alr_${n}`, name: `Sales ${n}`, kpi: 'netSales', scopeLocationIds: ['loc_1'], orgUnitId: null, evaluate: 'each_location', operator: 'below', threshold: '500', against: 'threshold', windowKind: 'today', windowDays: null, status: 'active', version: 1, createdBy: { type: 'user', id: `usr_${n}` }, createdAt: at, updatedAt: at, archivedAt: null });
  await em.flush();
}

describe('POST /internal/personal-data:export', () => {
  it('answers the employee\'s hours and shifts and the account\'s exports, schedules and alert rules, and no one else\'s', async () => {
    await holdings('ana');
    await holdings('bo');
    const r = await exportData({ userId: 'usr_ana', employeeId: 'emp_ana' });
    expect(r.status).toBe(200);
    expect(r.body.service).toBe('insights');
    expect(r.body.datasets.map((d: { name: string }) => d.name)).toEqual(DATASETS);
    const data = Object.fromEntries(r.body.datasets.map((d: { name: string; rows: unknown[] }) => [d.name, d.rows]));
    expect(data['labor-hours']).toEqual([{ businessDay: '2026-11-30', locationId: 'loc_1', position: 'Cook', regularHours: '7.5000', overtime: { '1.5': '1.0000' }, timesheetId: 'tsh_ana' }]);
    expect(data['scheduled-shifts']).toEqual([{ shiftId: 'shf_ana', businessDay: '2026-12-02', locationId: 'loc_1', position: 'Cook', paidHours: '8.0000', status: 'published' }]);
    expect(data['report-exports']).toEqual([expect.objectContaining({ id: 'rex_ana', report: 'sales-by-day', status: 'queued' })]);
    expect(data['report-schedules']).toEqual([expect.objectContaining({ id: 'rsc_ana', recipients: ['ana@example.com'] })]);
    expect(data['alert-rules']).toEqual([expect.objectContaining({ id: 'alr_ana', kpi: 'netSales', threshold: '500' })]);

    // only the employee record: their hours and shifts, not what an account asked for
    const byRecord = (await exportData({ userId: null, employeeId: 'emp_bo' })).body.datasets.map((d: { name: string; rows: unknown[] }) => [d.name, d.rows.length]);
    expect(byRecord).toEqual([['labor-hours', 1], ['scheduled-shifts', 1], ['report-exports', 0], ['report-schedules', 0], ['alert-rules', 0]]);
    expect((await exportData({ userId: null, employeeId: null })).body.datasets).toEqual([]);
  });

  it('refuses a malformed body, and any caller but the platform', async () => {
    const bad = await exportData({ employeeId: 'emp_1' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['userId']);
    const forbidden = await exportData({ userId: null, employeeId: null }, person());
    expect(forbidden.status).toBe(403);
  });
});
