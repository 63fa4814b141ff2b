import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import type { ReportExportCreate } from '@bop/contracts';
import { newId, NotFound, reachableLocationIds, ValidationError, type Work } from '@bop/shared';
import { queryLocations, type OrgUnitLocations } from '../locations/reach-store';
import { ReportExport, ReportSchedule } from './entities';
import { parseReportParams, scopeOf } from './params';
import type { ReportDefinition, ReportRegistry, ReportRow } from './registry';


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
 * A report asked for by key with its parameters (an export's, a schedule's run), checked as
 * `GET /reports/{key}` checks them: 422 on `report` or `parameters.<name>`; its locations resolved
 * within the caller's reach now (403 out_of_reach).
 */
export async function checkedRequest(w: Work, reports: ReportRegistry, key: string, parameters: Record<string, string>, inOrgUnits: OrgUnitLocations) {
  const report = reports.get(key);
  if (!report) throw new ValidationError([{ path: 'report', message: `No report ${key} (GET /reports lists them).` }]);
  const parsed = parseReportParams(report, parameters, ['parameters']);
  if ('errors' in parsed) throw new ValidationError(parsed.errors, 'The report parameters are not valid.');
  return { report, locationIds: await queryLocations(w, scopeOf(parsed.params), inOrgUnits) };
}

/**
 * `POST /report-exports`: the report and its parameters checked as `GET /reports/{key}` checks them
 * (422 on `report` or `parameters.<name>`), the locations resolved within the caller's reach now (403
 * out_of_reach as there), and the run queued for the `report-exports` worker.
 */
export async function requestExport(w: Work, reports: ReportRegistry, body: z.output<typeof ReportExportCreate>, inOrgUnits: OrgUnitLocations) {
  const { report, locationIds } = await checkedRequest(w, reports, body.report, body.parameters, inOrgUnits);
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
    scheduleId: null,
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
export async function claimExport(w: Work): Promise<ReportExport | null> {
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

/**
 * A run done: its file stored at files as `attachmentId`. A scheduled run e-mails its link to the
 * schedule's recipients: one internal event `insights.email.requested` (`{ to, subject, body }`) per recipient,
 * which identity sends.
 */
export async function completeExport(w: Work, id: string, done: { rows: number; attachmentId: string; fileName: string; title: string; publicUrl: string }): Promise<void> {
  const x = await w.em.findOneOrFail(ReportExport, { id });
  Object.assign(x, { status: 'completed', rows: done.rows, attachmentId: done.attachmentId, fileName: done.fileName, completedAt: w.now, error: null });
  await w.em.flush();
  if (!x.scheduleId) return;
  const schedule = await w.em.findOne(ReportSchedule, { id: x.scheduleId });
  if (!schedule || schedule.status !== 'active') return;
  const link = `${done.publicUrl.replace(/\/+$/, '')}/api/v1/attachments/${done.attachmentId}/content`;
  const period = x.parameters.from && x.parameters.to ? ` for ${x.parameters.from === x.parameters.to ? x.parameters.from : `${x.parameters.from} to ${x.parameters.to}`}` : '';
  const subject = `${done.title}${period}`;
  const body = `The ${schedule.every} report "${done.title}"${period} is ready (${done.rows} rows, ${x.format.toUpperCase()}).\n\nDownload: ${link}\n\nThe link opens for whoever scheduled it and for people whose attachments.read reaches its locations.`;
  // one email per recipient: identity's email-requests consumer takes `{ to, subject, body }` with one address
  for (const to of schedule.recipients) {
    w.emit({
      type: 'insights.email.requested',
      aggregateType: 'report_schedule',
      aggregateId: schedule.id,
      locationId: x.locationIds.length === 1 ? x.locationIds[0] : null,
      object: { to, subject, body },
    });
  }
}

/** A run that failed, with why (the requester reads it in `GET /report-exports/{id}`). */
export async function failExport(w: Work, id: string, error: string): Promise<void> {
  await w.em.nativeUpdate(ReportExport, { id }, { status: 'failed', error: error.slice(0, 2000), completedAt: w.now });
}
