import { LockMode } from '@mikro-orm/core';
import { actorOf, assertEmployeeRecordInReach, Conflict, employeeScopeCondition, type EmployeeRecordScope, findPage, NotFound, PeriodLocked, readSnapshot, type PageRequest, type ReachSet, type Work } from '@bop/shared';
import { Timesheet } from './entities';
import { timesheetDetailDto, timesheetDto } from './dto';
import { pendingTimesheetIds } from './marks-store';
import { recalculateIfMarked } from './recalc-store';
import { periodsById, type PeriodRow } from '../pay-periods/store';
import type { TimeSettings } from '../settings/company-settings';

export interface TimesheetFilters {
  payPeriodId?: string;
  scope?: EmployeeRecordScope;
  employeeId?: string;
  status?: 'open' | 'approved' | 'rejected' | 'locked';
}

/** `fn` on the unit with its `em` in one REPEATABLE READ snapshot. */
const inSnapshot = <T>(w: Work, fn: (s: Work) => Promise<T>): Promise<T> => readSnapshot(w.em, (em) => fn(Object.create(w, { em: { value: em } }) as Work));

/** `GET /time/timesheets` (and `/me/timesheets`): a page, oldest id first, with the period's dates and whether the figures are current. */
export async function listTimesheets(w: Work, f: TimesheetFilters, page: PageRequest & { updatedSince?: string }) {
  // one snapshot: a recalculation committing between the rows and the marks would pair old figures with "current"
  return inSnapshot(w, async (s) => {
    const rows = await findPage(
      s.em,
      Timesheet,
      [f.payPeriodId && { payPeriodId: f.payPeriodId }, employeeScopeCondition<Timesheet>(f.scope, { location: (ids) => ({ locationId: ids }), employee: (ids) => ({ employeeId: ids }) }), f.employeeId && { employeeId: f.employeeId }, f.status && { status: f.status }],
      page,
    );
    const periods = await periodsById(s, rows.data.map((t) => t.payPeriodId));
    const marked = await pendingTimesheetIds(s, rows.data);
    return { ...rows, data: rows.data.map((t) => timesheetDto(t, periods.get(t.payPeriodId)!, !marked.has(t.id))) };
  });
}

/** `GET /time/timesheets/{id}`: daily hours, breaks, overtime and exceptions; 404 for one out of reach or another employee's own. */
export async function getTimesheet(w: Work, id: string, access: { reach?: ReachSet; employeeId?: string }) {
  return inSnapshot(w, async (s) => {
    const t = await s.em.findOne(Timesheet, { id });
    if (!t || (access.employeeId && t.employeeId !== access.employeeId)) throw new NotFound('timesheet', id);
    if (access.reach) assertEmployeeRecordInReach(access.reach, t.locationId, t.employeeId);
    const period = (await periodsById(s, [t.payPeriodId])).get(t.payPeriodId)!;
    return timesheetDetailDto(t, period, !(await pendingTimesheetIds(s, [t])).has(t.id));
  });
}

/**
 * `:approve` and `:reject` (supplement: Timesheet states): the figures are brought up to date first,
 * in the same transaction, so what is approved is what the punches say now. Approve needs `open` and
 * no missing punches; reject needs `open` or `approved` and an unlocked period.
 */
export async function decideTimesheet(w: Work, id: string, decision: { approve: true } | { approve: false; reason: string }, settings: () => Promise<TimeSettings>) {
  const { em } = w;
  const t = await em.findOne(Timesheet, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!t) throw new NotFound('timesheet', id);
  assertEmployeeRecordInReach(w.reach(), t.locationId, t.employeeId);
  await recalculateIfMarked(w, [t.id], settings);
  await em.refresh(t);
  w.checkVersion(t.version);
  const period = (await periodsById(w, [t.payPeriodId])).get(t.payPeriodId)!;
  if (t.status === 'locked' || period.locked) throw new PeriodLocked(`The pay period ${period.start} to ${period.end} is locked.`);
  const at = w.now;
  if (decision.approve) {
    if (t.status !== 'open') throw new Conflict(`Timesheet ${id} is ${t.status}; only an open timesheet is approved.`);
    if (t.missingPunches) {
      const missing = (t.figures?.exceptions ?? []).filter((e) => ['missing_clock_out', 'missing_clock_in', 'break_not_ended'].includes(e.code));
      throw new Conflict(`Timesheet ${id} has missing punches; fix them first: ${missing.map((e) => e.message).join(' ')}`);
    }
    t.status = 'approved';
    t.approvedAt = at;
    t.approvedBy = actorOf(w.actor);
  } else {
    if (t.status !== 'open' && t.status !== 'approved') throw new Conflict(`Timesheet ${id} is ${t.status}; only an open or approved timesheet is rejected.`);
    t.status = 'rejected';
    t.approvedAt = null;
    t.approvedBy = null;
    t.rejectedAt = at;
    t.rejectedBy = actorOf(w.actor);
    t.rejectionReason = decision.reason;
  }
  t.version += 1;
  t.updatedAt = at;
  await em.flush();
  const detail = timesheetDetailDto(t, period, true);
  w.emit({
    type: decision.approve ? 'timesheet.approved' : 'timesheet.rejected',
    aggregateType: 'timesheet',
    aggregateId: t.id,
    locationId: t.locationId,
    object: timesheetDto(t, period, true),
  });
  return detail;
}

/** The timesheets of a period, each with its status, for the lock's check. */
export async function periodTimesheets(w: Work, period: PeriodRow) {
  return w.em.find(Timesheet, { payPeriodId: period.id }, { orderBy: { id: 'asc' } });
}
