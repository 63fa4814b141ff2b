import { callCommand, defineWorker, type ServiceRuntime, type WorkerRound } from '@bop/shared';
import type { InsightsConfig } from '../config';
import type { ReportExport } from './entities';
import { allRows, claimExport, completeExport, failExport } from './exports-store';
import { queueDueSchedule } from './schedules-store';
import { CSV_TYPE, reportCsv, reportXlsx, XLSX_TYPE } from './files';
import { parseReportParams } from './params';
import type { ReportDefinition, ReportRegistry, ReportRow } from './registry';

/** What a run stores: the file's name, type and bytes. */
async function exportFile(x: ReportExport, report: ReportDefinition, rows: ReportRow[]) {
  const stem = `${report.key}_${x.parameters.from ?? ''}_${x.parameters.to ?? ''}`.replace(/_+$/, '').replace(/[^A-Za-z0-9._-]/g, '_');
  if (x.format === 'csv') return { fileName: `${stem}.csv`, contentType: CSV_TYPE, bytes: reportCsv(report.columns, rows) };
  return { fileName: `${stem}.xlsx`, contentType: XLSX_TYPE, bytes: await reportXlsx(report.title, report.columns, rows) };
}

/**
 * Runs one queued export: the report to its last row (the locations resolved when it was requested),
 * the file (CSV or XLSX) stored at the files service as an attachment uploaded by the requester (they
 * download it there), then completed with its link; any failure is recorded on the export as `failed`.
 */
async function runExport(svc: ServiceRuntime<InsightsConfig>, reports: ReportRegistry, r: WorkerRound, x: ReportExport): Promise<void> {
  try {
    const report = reports.get(x.reportKey);
    if (!report) throw new Error(`the report ${x.reportKey} no longer exists`);
    const parsed = parseReportParams(report, x.parameters);
    if ('errors' in parsed) throw new Error(`its parameters are no longer valid: ${parsed.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
    const rows = await r.read((w) => allRows(w, report, parsed.params, x.locationIds));
    const file = await exportFile(x, report, rows);
    const attachment = await callCommand<{ id: string }>(
      svc.services,
      'files',
      'POST',
      '/internal/attachments',
      {
        fileName: file.fileName,
        contentType: file.contentType,
        contentBase64: file.bytes.toString('base64'),
        description: `${report.title} (report export ${x.id})`,
        locationId: x.locationIds.length === 1 ? x.locationIds[0] : null,
        uploadedBy: { type: x.requestedByType, id: x.requestedById },
      },
      { what: 'store the export', ok: [201] },
    );
    await r.write((w) => completeExport(w, x.id, { rows: rows.length, attachmentId: attachment.id, fileName: file.fileName, title: report.title, publicUrl: svc.config.INSIGHTS_PUBLIC_URL ?? '' }));
  } catch (err) {
    await r.write((w) => failExport(w, x.id, (err as Error).message));
  }
}

/** The `report-exports` worker: one queued export per round (true: look again at once). */
export const reportExportWorker = (svc: ServiceRuntime<InsightsConfig>, reports: ReportRegistry) =>
  defineWorker({
    name: 'report-exports',
    every: () => svc.config.INSIGHTS_EXPORT_POLL_MS,
    backoff: { baseMs: 1000, capMs: 60_000 },
    round: async (r) => {
      const x = await r.write((w) => claimExport(w));
      if (!x) return false;
      await runExport(svc, reports, r, x);
      return true;
    },
  });

/** The `report-schedules` worker: one due schedule per round queues its period's export (true: look again at once). */
export const reportScheduleWorker = (svc: ServiceRuntime<InsightsConfig>, reports: ReportRegistry) =>
  defineWorker({
    name: 'report-schedules',
    every: () => svc.config.INSIGHTS_SCHEDULE_POLL_MS,
    backoff: { baseMs: 1000, capMs: 60_000 },
    round: async (r) => r.write((w) => queueDueSchedule(w, reports)),
  });
