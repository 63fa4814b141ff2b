import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import type { ReportExportCreate } from '@bop/contracts';
import { callCommand, defineWorker, newId, NotFound, reachableLocationIds, ValidationError, type ServiceRuntime, type Work, type WorkerRound } from '@bop/shared';
import type { InsightsConfig } from '../config';
import { kpiLocations } from '../kpis/store';
import { reportByKey } from '.';
import { ReportExport } from './entities';
import { parseReportParams, scopeOf } from './params';
import type { ReportDefinition, ReportRow } from './registry';
import { CSV_TYPE, reportCsv, reportXlsx, XLSX_TYPE } from './files';

type OrgUnitLocations = Parameters<typeof kpiLocations>[2];

/** Rows per page while an export runs its report to the end. */
const EXPORT_PAGE = 5000;
/** An export still `running` this long after it started lost its worker: it is taken up again. */
const STALE_RUN_MS = 15 * 60_000;

export function exportDto(x: ReportExport) {
  return {
    id: x.id,
    report: x.reportKey,
    format: x.format as 'csv' | 'xlsx',
    parameters: x.parameters,
    locationIds: x.locationIds,
    status: x.status as 'queued' | 'running' | 'completed' | 'failed',
    rows: x.rows ?? null,
    attachmentId: x.attachmentId ?? null,
    fileName: x.fileName ?? null,
    downloadUrl: x.attachmentId ? `/api/v1/attachments/${x.attachmentId}/content` : null,
    error: x.error ?? null,
    createdAt: new Date(x.createdAt).toISOString(),
    completedAt: x.completedAt ? new Date(x.completedAt).toISOString() : null,
  };
}

/**
 * `POST /report-exports`: the report and its parameters checked as `GET /reports/{key}` checks them
 * (422 on `report` or `parameters.<name>`), the locations resolved within the caller's reach now (403
 * out_of_reach as there), and the run queued for the `report-exports` worker.
 */
export async function requestExport(w: Work, body: z.output<typeof ReportExportCreate>, inOrgUnits: OrgUnitLocations) {
  const report = reportByKey(body.report);
  if (!report) throw new ValidationError([{ path: 'report', message: `No report ${body.report} (GET /reports lists them).` }]);
  const parsed = parseReportParams(report, body.parameters, ['parameters']);
  if ('errors' in parsed) throw new ValidationError(parsed.errors, 'The report parameters are not valid.');
  const locationIds = await kpiLocations(w, scopeOf(parsed.params), inOrgUnits);
  const x = w.em.create(ReportExport, {
    id: newId('reportExport'),
    reportKey: report.key,
    parameters: body.parameters,
    locationIds,
    format: body.format,
    status: 'queued',
    rows: null,
    attachmentId: null,
    fileName: null,
    error: null,
    requestedByType: w.actor.kind === 'integration' ? 'integration' : 'user',
    requestedById: w.actor.id,
    createdAt: w.now,
    startedAt: null,
    completedAt: null,
  });
  await w.em.flush();
  return exportDto(x);
}

/** `GET /report-exports/{id}`: the requester's, or one whose every location the caller's reach covers; anyone else 404. */
export async function getExport(w: Work, id: string) {
  const x = await w.em.findOne(ReportExport, { id });
  const reachable = x && x.requestedById !== w.actor.id ? reachableLocationIds(w.reach()) : null;
  if (!x || (reachable && x.locationIds.some((l) => !reachable.includes(l)))) throw new NotFound('report export', id);
  return exportDto(x);
}

/** Takes the oldest queued export (or one whose run was lost), skipping those another worker holds: it is running from now. */
async function claimExport(w: Work): Promise<ReportExport | null> {
  const stale = new Date(w.now.getTime() - STALE_RUN_MS);
  const [x] = await w.em.find(ReportExport, { $or: [{ status: 'queued' }, { status: 'running', startedAt: { $lt: stale } }] }, { orderBy: { createdAt: 'asc', id: 'asc' }, limit: 1, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE });
  if (!x) return null;
  Object.assign(x, { status: 'running', startedAt: w.now });
  await w.em.flush();
  return x;
}

/** Every row of a report run, page after page. */
export async function allRows(w: Work, report: ReportDefinition, params: Record<string, unknown>, locationIds: string[]): Promise<ReportRow[]> {
  const rows: ReportRow[] = [];
  let after: string | null = null;
  do {
    const page = await report.run(w, { ...params, locationIds }, { limit: EXPORT_PAGE, after });
    rows.push(...page.rows);
    after = page.nextCursor;
  } while (after !== null);
  return rows;
}

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
async function runExport(svc: ServiceRuntime<InsightsConfig>, r: WorkerRound, x: ReportExport): Promise<void> {
  try {
    const report = reportByKey(x.reportKey);
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
    await r.write(async (w) => {
      await w.em.nativeUpdate(ReportExport, { id: x.id }, { status: 'completed', rows: rows.length, attachmentId: attachment.id, fileName: file.fileName, completedAt: w.now, error: null });
    });
  } catch (err) {
    await r.write(async (w) => {
      await w.em.nativeUpdate(ReportExport, { id: x.id }, { status: 'failed', error: (err as Error).message.slice(0, 2000), completedAt: w.now });
    });
  }
}

/** The `report-exports` worker: one queued export per round (true: look again at once). */
export const reportExportWorker = (svc: ServiceRuntime<InsightsConfig>) =>
  defineWorker({
    name: 'report-exports',
    every: () => svc.config.INSIGHTS_EXPORT_POLL_MS,
    backoff: { baseMs: 1000, capMs: 60_000 },
    round: async (r) => {
      const x = await r.write((w) => claimExport(w));
      if (!x) return false;
      await runExport(svc, r, x);
      return true;
    },
  });
