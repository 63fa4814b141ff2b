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
  },
});
export type ReportExport = InferEntity<typeof ReportExport>;
