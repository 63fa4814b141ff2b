import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import type { ReportScheduleCreate, ReportScheduleListQuery } from '@bop/contracts';
import { findPage, mapPage, newId, NotFound, reachableLocationIds, ValidationError, type Work } from '@bop/shared';
import type { OrgUnitLocations } from '../locations/reach-store';
import { ReportExport, ReportSchedule } from './entities';
import { dayText } from './format';
import { checkedRequest } from './exports-store';
import { reportParameters, type ReportDefinition, type ReportRegistry } from './registry';
import { periodAfter, periodHolding, runAt, type Every } from './schedule-periods';



export function scheduleDto(x: ReportSchedule) {
  return {
    id: x.id,
    report: x.reportKey,
    format: x.format as 'csv' | 'xlsx',
    every: x.every as Every,
    recipients: x.recipients,
    parameters: x.parameters,
    locationIds: x.locationIds,
    status: x.status as 'active' | 'stopped',
    nextPeriod: { from: dayText(x.nextFrom), to: dayText(x.nextTo) },
    nextRunAt: new Date(x.nextRunAt).toISOString(),
    lastExportId: x.lastExportId ?? null,
    createdAt: new Date(x.createdAt).toISOString(),
    updatedAt: new Date(x.updatedAt).toISOString(),
  };
}

/** The `from`/`to` a period gives a report whose parameters have them (else none). */
function periodParams(report: ReportDefinition, period: { from: string; to: string }): Record<string, string> {
  const names = reportParameters(report.params).map((p) => p.name);
  return names.includes('from') && names.includes('to') ? { from: period.from, to: period.to } : {};
}

/**
 * `POST /report-schedules`: the report and its parameters checked as an export checks them, with the
 * first period's dates (422 on `report`, `parameters.<name>`; `from`/`to` are the period's), the
 * locations resolved within the caller's reach now (403 out_of_reach), the first run after the
 * current period ends.
 */
export async function createSchedule(w: Work, reports: ReportRegistry, body: z.output<typeof ReportScheduleCreate>, inOrgUnits: OrgUnitLocations) {
  const period = periodHolding(body.every, w.now.toISOString().slice(0, 10));
  const named = reports.get(body.report);
  const clash = named ? Object.keys(periodParams(named, period)).filter((k) => k in body.parameters) : [];
  if (clash.length > 0) throw new ValidationError(clash.map((k) => ({ path: `parameters.${k}`, message: `Each run's period sets \`${k}\`.` })));
  const { report, locationIds } = await checkedRequest(w, reports, body.report, { ...body.parameters, ...(named ? periodParams(named, period) : {}) }, inOrgUnits);
  const x = w.em.create(ReportSchedule, {
    id: newId('reportSchedule'),
    reportKey: report.key,
    parameters: body.parameters,
    locationIds,
    format: body.format,
    every: body.every,
    recipients: [...new Set(body.recipients.map((r) => r.toLowerCase()))],
    status: 'active',
    nextFrom: period.from,
    nextTo: period.to,
    nextRunAt: runAt(period),
    lastExportId: null,
    createdByType: w.actor.kind === 'integration' ? 'integration' : 'user',
    createdById: w.actor.id,
    createdAt: w.now,
    updatedAt: w.now,
  });
  await w.em.flush();
  const dto = scheduleDto(x);
  scheduleEvent(w, 'report_schedule.created', dto);
  return dto;
}

/**
 * The schedule's change events (the project's own public types, issue 41 item 3): data.object the schedule
 * as `GET /report-schedules` lists it; company-wide (its locations are a report's scope).
 */
function scheduleEvent(w: Work, type: 'report_schedule.created' | 'report_schedule.stopped', dto: ReturnType<typeof scheduleDto>, previous?: Record<string, unknown>) {
  w.emit({ type, aggregateType: 'report_schedule', aggregateId: dto.id, locationId: null, object: dto, ...(previous ? { previous } : {}) });
}

/** `GET /report-schedules`: the caller's own; with reach Everyone, every one. */
export async function listSchedules(w: Work, query: z.output<typeof ReportScheduleListQuery>) {
  const everyone = reachableLocationIds(w.reach()) === null;
  const page = await findPage(w.em, ReportSchedule, [everyone ? null : { createdById: w.actor.id }], query);
  return mapPage(page, scheduleDto);
}

/** `DELETE /report-schedules/{id}`: stops it (kept, `stopped`); the creator's, or one whose every location the caller's reach covers, else 404. */
export async function stopSchedule(w: Work, id: string): Promise<void> {
  const x = await w.em.findOne(ReportSchedule, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  const reachable = x && x.createdById !== w.actor.id ? reachableLocationIds(w.reach()) : null;
  if (!x || (reachable && x.locationIds.some((l) => !reachable.includes(l)))) throw new NotFound('report schedule', id);
  if (x.status === 'stopped') return;
  x.status = 'stopped';
  x.updatedAt = w.now;
  await w.em.flush();
  scheduleEvent(w, 'report_schedule.stopped', scheduleDto(x), { status: 'active' });
}

/**
 * One schedule whose period has ended (the oldest due, skipping one another worker holds): its
 * export queued for that period as its creator's, the next period set. Periods missed while no
 * worker ran are run one by one. False when none is due.
 */
export async function queueDueSchedule(w: Work, reports: ReportRegistry): Promise<boolean> {
  const [x] = await w.em.find(ReportSchedule, { status: 'active', nextRunAt: { $lte: w.now } }, { orderBy: { nextRunAt: 'asc', id: 'asc' }, limit: 1, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE });
  if (!x) return false;
  const period = { from: dayText(x.nextFrom), to: dayText(x.nextTo) };
  const report = reports.get(x.reportKey);
  const exportId = newId('reportExport');
  w.em.create(ReportExport, {
    id: exportId,
    reportKey: x.reportKey,
    parameters: { ...x.parameters, ...(report ? periodParams(report, period) : {}) },
    locationIds: x.locationIds,
    format: x.format,
    status: 'queued',
    rows: null,
    attachmentId: null,
    fileName: null,
    error: null,
    requestedByType: x.createdByType,
    requestedById: x.createdById,
    createdAt: w.now,
    startedAt: null,
    completedAt: null,
    scheduleId: x.id,
  });
  const next = periodAfter(x.every as Every, period);
  Object.assign(x, { nextFrom: next.from, nextTo: next.to, nextRunAt: runAt(next), lastExportId: exportId, updatedAt: w.now });
  await w.em.flush();
  return true;
}
