import { z } from '../zod';
import { listEnvelope, ListQuery, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, Timestamp } from '../common';
import { IsoDate } from '../identity/company-settings';
import { KPI_MAX_DAYS, locationList } from './kpis';

const ref = z.string().min(1).max(64);

/**
 * The parameters most reports share: a range of business days and the locations (named, an org unit's,
 * or every one within reach), as `GET /kpis` takes them. A report adds its own to these.
 */
export const ReportRangeParams = z
  .strictObject({
    from: IsoDate.describe('first business day (inclusive)'),
    to: IsoDate.describe('last business day (inclusive)'),
    locationId: locationList.optional().describe('location ids separated by commas (up to 200); default: every location within your reach'),
    orgUnitId: ref.optional().describe('every location of this org unit and the units below it (not with `locationId`)'),
  })
  .superRefine((q, ctx) => {
    if (q.from > q.to) ctx.addIssue({ code: 'custom', path: ['to'], message: '`to` is before `from`.' });
    else if ((Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 + 1 > KPI_MAX_DAYS) ctx.addIssue({ code: 'custom', path: ['to'], message: `A range is at most ${KPI_MAX_DAYS} days.` });
    if (q.locationId && q.orgUnitId) ctx.addIssue({ code: 'custom', path: ['orgUnitId'], message: 'Send `locationId` or `orgUnitId`, not both.' });
  });

export const ReportColumnType = z.enum(['money', 'decimal', 'integer', 'text', 'date']);

export const ReportColumn = z
  .object({
    name: z.string(),
    type: ReportColumnType.openapi({ description: 'money and decimal are decimal strings, integer a number, date YYYY-MM-DD' }),
    unit: z.string().nullable().openapi({ description: '`money` (the sales\' currency), `h` (hours), `%`, `money per h`; null when none', example: 'h' }),
    description: z.string(),
  })
  .openapi('ReportColumn');

export const ReportParameter = z
  .object({
    name: z.string(),
    type: z.string().openapi({ description: 'date, string, integer, enum, or `list` (values separated by commas)', example: 'date' }),
    required: z.boolean(),
    description: z.string(),
    values: z.array(z.string()).optional().openapi({ description: 'the values an enum takes' }),
  })
  .openapi('ReportParameter');

export const ReportDescription = z
  .object({
    key: z.string().openapi({ example: 'labor-vs-sales' }),
    title: z.string(),
    description: z.string(),
    parameters: z.array(ReportParameter),
    columns: z.array(ReportColumn),
  })
  .openapi('ReportDescription');

export const ReportList = z.object({ data: z.array(ReportDescription) }).openapi('ReportList');

export const ReportKeyParam = z.object({ key: z.string().min(1).max(100) });

/** `GET /reports/{key}`: the page, and the report's own parameters (see `GET /reports`), validated by the report. */
export const ReportRunQuery = z
  .looseObject({
    limit: z.coerce.number().int().min(1).max(PAGE_LIMIT_MAX).default(PAGE_LIMIT_DEFAULT),
    cursor: z.string().min(1).optional(),
  })
  .openapi({ description: 'plus the report\'s own parameters, as `GET /reports` lists them (most take `from`, `to`, `locationId`, `orgUnitId`)' });

export const ReportCell = z.union([z.string(), z.number(), z.null()]);

export const ReportRun = z
  .object({
    key: z.string(),
    title: z.string(),
    locationIds: z.array(z.string()).openapi({ description: 'the locations counted' }),
    columns: z.array(ReportColumn),
    data: z.array(z.record(z.string(), ReportCell)).openapi({ description: 'one object per row, keyed by column name' }),
    nextCursor: z.string().nullable(),
    hasMore: z.boolean(),
  })
  .openapi('ReportRun');

export const ReportExportFormat = z.enum(['csv', 'xlsx']);
export const ReportExportStatus = z.enum(['queued', 'running', 'completed', 'failed']);

export const ReportExportCreate = z
  .strictObject({
    report: z.string().min(1).max(100).openapi({ description: 'the report key (`GET /reports`)', example: 'labor-vs-sales' }),
    format: ReportExportFormat,
    parameters: z
      .record(z.string(), z.string().max(200 * 65))
      .default({})
      .openapi({ description: 'the parameters `GET /reports/{key}` takes, as strings (`locationId` comma-separated)', example: { from: '2026-11-16', to: '2026-11-22' } }),
  })
  .openapi('ReportExportCreate');

export const ReportExport = z
  .object({
    id: z.string().openapi({ example: 'rex_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    report: z.string(),
    format: ReportExportFormat,
    parameters: z.record(z.string(), z.string()),
    locationIds: z.array(z.string()),
    status: ReportExportStatus,
    rows: z.number().int().nullable().openapi({ description: 'rows written (once completed)' }),
    attachmentId: z.string().nullable(),
    fileName: z.string().nullable(),
    downloadUrl: z.string().nullable().openapi({ description: 'the file at the files service, once completed', example: '/api/v1/attachments/att_01JD3Y7Q0ZK8M4N2P5R6S7T8V9/content' }),
    error: z.string().nullable(),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
  })
  .openapi('ReportExport');

export const ReportScheduleEvery = z.enum(['daily', 'weekly', 'monthly']);

/**
 * `POST /report-schedules` (the project's own addition): a report run for each past period and e-mailed
 * to `recipients` with its download link. The period sets `from` and `to`.
 */
export const ReportScheduleCreate = z
  .strictObject({
    report: z.string().min(1).max(100).openapi({ description: 'the report key (`GET /reports`)', example: 'labor-vs-sales' }),
    format: ReportExportFormat,
    every: ReportScheduleEvery.openapi({ description: 'daily: the day before; weekly: Monday to Sunday; monthly: the calendar month (UTC dates)' }),
    recipients: z.array(z.email().max(254)).min(1).max(50),
    parameters: z
      .record(z.string(), z.string().max(200 * 65))
      .default({})
      .openapi({ description: 'the report\'s other parameters, as strings (`locationId` comma-separated); not `from`/`to`' }),
  })
  .openapi('ReportScheduleCreate');

export const ReportSchedule = z
  .object({
    id: z.string().openapi({ example: 'rsc_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    report: z.string(),
    format: ReportExportFormat,
    every: ReportScheduleEvery,
    recipients: z.array(z.string()),
    parameters: z.record(z.string(), z.string()),
    locationIds: z.array(z.string()).openapi({ description: 'the locations counted, resolved within the creator\'s reach when it was made' }),
    status: z.enum(['active', 'stopped']),
    nextPeriod: z.object({ from: IsoDate, to: IsoDate }),
    nextRunAt: z.string().openapi({ description: 'when the next period is run and sent' }),
    lastExportId: z.string().nullable().openapi({ description: 'the export of the latest run (`GET /report-exports/{id}`)' }),
    createdAt: z.string(),
    updatedAt: z.string().openapi({ description: 'when it last changed: stopped, or a run queued and the next period set' }),
  })
  .openapi('ReportSchedule');

export const ReportScheduleListQuery = ListQuery.extend({ updatedSince: Timestamp.optional() });

export const reportOperations = {
  'GET /reports': { response: ReportList },
  'GET /reports/{key}': { params: ReportKeyParam, query: ReportRunQuery, response: ReportRun },
  'POST /report-exports': { body: ReportExportCreate, response: ReportExport, status: 202 },
  'GET /report-exports/{id}': { params: z.object({ id: ref }), response: ReportExport },
  'GET /report-schedules': { query: ReportScheduleListQuery, response: listEnvelope(ReportSchedule) },
  'POST /report-schedules': { body: ReportScheduleCreate, response: ReportSchedule, status: 201 },
  'DELETE /report-schedules/{id}': { params: z.object({ id: ref }), status: 204 },
};
