import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A report run requested as a file: queued, run by the `report-exports` worker, stored at files as an attachment. */
export const ReportExport = defineEntity({
  name: 'ReportExport',
  tableName: 'report_exports',
  properties: {
    id: p.string().primary(),
    reportKey: p.string(),
    /** the parameters as sent (strings, as a query carries them) */
    parameters: p.json<Record<string, string>>(),
    /** the locations counted, resolved within the requester's reach when it was requested */
    locationIds: p.json<string[]>(),
    format: p.string(),
    status: p.string(),
    rows: p.integer().nullable(),
    attachmentId: p.string().nullable(),
    fileName: p.string().nullable(),
    error: p.text().nullable(),
    requestedByType: p.string(),
    requestedById: p.string(),
    createdAt: p.datetime(),
    startedAt: p.datetime().nullable(),
    completedAt: p.datetime().nullable(),
    /** the schedule that queued it (its recipients are e-mailed the link once it is stored) */
    scheduleId: p.string().nullable(),
  },
});
export type ReportExport = InferEntity<typeof ReportExport>;

/** A report run for each past period (daily, weekly, monthly) and e-mailed to its recipients. */
export const ReportSchedule = defineEntity({
  name: 'ReportSchedule',
  tableName: 'report_schedules',
  properties: {
    id: p.string().primary(),
    reportKey: p.string(),
    /** the parameters other than the period's `from`/`to`, as sent */
    parameters: p.json<Record<string, string>>(),
    /** the locations counted, resolved within the creator's reach when it was made */
    locationIds: p.json<string[]>(),
    format: p.string(),
    every: p.string(),
    recipients: p.json<string[]>(),
    status: p.string(),
    nextFrom: p.string().columnType('date'),
    nextTo: p.string().columnType('date'),
    nextRunAt: p.datetime(),
    lastExportId: p.string().nullable(),
    createdByType: p.string(),
    createdById: p.string(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type ReportSchedule = InferEntity<typeof ReportSchedule>;
