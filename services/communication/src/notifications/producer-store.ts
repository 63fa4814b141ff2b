import type { z } from 'zod';
import { Announcement, AnnouncementOverdue, AnnouncementReminded, CorrectiveAction, SchedulePublished, Shift, ShiftSwap, TimeOffRequest, WorkOrder, type EventEnvelope } from '@bop/contracts';
import { atEmployeeLocations, type Work } from '@bop/shared';
import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { CommunicationEmployee } from '../employees/entities';
import { CommunicationShift } from '../shifts/entities';
import { lockShiftsAt } from '../shifts/store';
import { AnnouncementRecipient } from '../announcements/entities';
import { notify, type NotificationDraft } from './store';
import { ScheduleNotice } from './entities';
import { startsSoon } from './rules';

/** The fields of an event's object a producer reads, checked against the producer's contract: a malformed object is a producer's bug (parked, not guessed). */
function objectOf<S extends z.ZodType>(event: EventEnvelope, schema: S): z.output<S> {
  const r = schema.safeParse(event.data.object);
  if (!r.success) throw new Error(`${event.type} ${event.id}: data.object is not as its contract says (${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')})`);
  return r.data;
}

const minute = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** What a schedule publication's notifications need from its event. */
type Publication = { eventId: string; locationId: string; from: string; to: string; shiftIds: string[] };

/**
 * `schedule.published`: each employee with shifts in it (from the shift replica: scheduling announced
 * each draft with `shift.changed` when it was made), with their number of shifts and the first one.
 * Urgent when one of their shifts starts within 24 hours. On Kafka the publication may arrive before
 * some of its drafts (they are keyed by shift, it by location): then it waits as a schedule notice,
 * and the last of those drafts to arrive makes the notifications (`shiftArrived`), still as this
 * event's (one per person, however often either is delivered).
 */
async function schedulePublished(w: Work, event: EventEnvelope): Promise<NotificationDraft[]> {
  const o = objectOf(event, SchedulePublished.pick({ locationId: true, from: true, to: true, shiftIds: true }));
  const p: Publication = { eventId: event.id, locationId: o.locationId, from: o.from, to: o.to, shiftIds: [...new Set(o.shiftIds)] };
  if (p.shiftIds.length === 0) return [];
  // taken before reading the replica: a draft being written now is either seen here or sees the notice
  await lockShiftsAt(w, p.locationId);
  const known = await w.em.find(CommunicationShift, { id: { $in: p.shiftIds } }, { fields: ['id'] });
  if (known.length < p.shiftIds.length) {
    const have = new Set(known.map((s) => s.id));
    await w.em
      .createQueryBuilder(ScheduleNotice)
      .insert({ eventId: p.eventId, locationId: p.locationId, fromDate: p.from, toDate: p.to, shiftIds: p.shiftIds, waitingShiftIds: p.shiftIds.filter((id) => !have.has(id)), receivedAt: w.now })
      .onConflict('eventId')
      .ignore()
      .execute();
    return [];
  }
  return scheduleDrafts(w, p);
}

/** A publication's notifications, once every shift it names is in the replica. */
async function scheduleDrafts(w: Work, p: Publication): Promise<NotificationDraft[]> {
  const shifts = await w.em.find(CommunicationShift, { id: { $in: p.shiftIds } }, { fields: ['id', 'employeeId', 'startAt', 'localDate'], orderBy: { startAt: 'asc' } });
  const byEmployee = new Map<string, Array<(typeof shifts)[number]>>();
  for (const s of shifts) if (s.employeeId) byEmployee.set(s.employeeId, [...(byEmployee.get(s.employeeId) ?? []), s]);
  return [...byEmployee].map(([employeeId, mine]) => ({
    employeeId,
    kind: 'schedule_published',
    title: 'Your schedule is published',
    body: `You have ${plural(mine.length, 'shift')} from ${p.from} to ${p.to}; the first starts on ${mine[0].localDate}.`,
    subject: { type: 'schedule', id: p.locationId },
    locationId: p.locationId,
    urgent: mine.some((s) => startsSoon(s.startAt, w.now)),
  }));
}

/**
 * A shift has reached the replica (its location's lock held by `recordShift`): the schedule notices waiting for
 * it no longer do, and a notice that waits for nothing more makes its publication's notifications
 * and goes. Answers how many notifications were made.
 */
export async function shiftArrived(w: Work, shiftId: string): Promise<number> {
  const notices = await w.em.find(ScheduleNotice, { waitingShiftIds: { $contains: [shiftId] } }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  let made = 0;
  for (const n of notices) {
    n.waitingShiftIds = n.waitingShiftIds.filter((id) => id !== shiftId);
    if (n.waitingShiftIds.length === 0) made += await noticeMade(w, n);
  }
  await w.em.flush();
  return made;
}

/** A schedule notice's notifications, from the shifts the replica holds; the notice goes. */
async function noticeMade(w: Work, n: ScheduleNotice): Promise<number> {
  const made = await notify(w, n.eventId, await scheduleDrafts(w, { eventId: n.eventId, locationId: n.locationId, from: n.fromDate, to: n.toDate, shiftIds: n.shiftIds }));
  w.em.remove(n);
  return made;
}

/**
 * How long a schedule notice waits for its drafts. Scheduling announced each draft long before the
 * publication; one still missing after this is lost to the replica (e.g. parked), and the people whose
 * shifts are known are not kept waiting for it.
 */
export const SCHEDULE_NOTICE_WAIT_MS = 10 * 60_000;

/** Schedule notices that have waited `SCHEDULE_NOTICE_WAIT_MS` (for the worker). */
export async function staleNotices(w: Work): Promise<string[]> {
  const rows = await w.em.find(ScheduleNotice, { receivedAt: { $lte: new Date(w.now.getTime() - SCHEDULE_NOTICE_WAIT_MS) } }, { fields: ['eventId'], orderBy: { receivedAt: 'asc' }, limit: 100 });
  return rows.map((r) => r.eventId);
}

/** A notice that waited too long: notifications for the shifts the replica holds. Answers how many were made. */
export async function noticeTimedOut(w: Work, eventId: string): Promise<number> {
  const n = await w.em.findOne(ScheduleNotice, { eventId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!n || n.receivedAt.getTime() > w.now.getTime() - SCHEDULE_NOTICE_WAIT_MS) return 0;
  const made = await noticeMade(w, n);
  await w.em.flush();
  return made;
}

/**
 * `open_shift.posted`: the eligible staff, as scheduling offers open shifts (`GET /me/open-shifts`):
 * active, working at the shift's location (home or further), holding its position, and (from the
 * shift replica) not working another published shift that overlaps it. Approved time off is not in
 * the event nor replicated here: scheduling refuses such a claim. Urgent when it starts within 24 hours.
 */
async function openShiftPosted(w: Work, event: EventEnvelope): Promise<NotificationDraft[]> {
  const o = objectOf(event, Shift.pick({ id: true, locationId: true, position: true, employeeId: true, start: true, end: true, localStart: true, localEnd: true }));
  if (o.employeeId !== null) return [];
  const staff = await w.em.find(
    CommunicationEmployee,
    { $and: [{ status: 'active' }, atEmployeeLocations(o.locationId) as FilterQuery<CommunicationEmployee>, { positions: { $overlap: [o.position] } }] },
    { fields: ['id'] },
  );
  if (staff.length === 0) return [];
  const busy = new Set(
    (await w.em.find(CommunicationShift, { employeeId: { $in: staff.map((e) => e.id) }, status: 'published', startAt: { $lt: new Date(o.end) }, endAt: { $gt: new Date(o.start) } }, { fields: ['employeeId'] })).map((s) => s.employeeId),
  );
  return staff
    .filter((e) => !busy.has(e.id))
    .map((e) => ({
      employeeId: e.id,
      kind: 'shift_offered',
      title: `Open shift: ${o.position}`,
      body: `A ${o.position} shift is open on ${minute(o.localStart)}–${o.localEnd.slice(11, 16)}. Claim it in the app.`,
      subject: { type: 'shift', id: o.id },
      locationId: o.locationId,
      urgent: startsSoon(o.start, w.now),
    }));
}

const SwapFields = ShiftSwap.pick({ id: true, shiftId: true, locationId: true, fromEmployeeId: true, toEmployeeId: true, shiftStart: true, status: true });

/** `shift.swap_requested`: the employee asked to take the shift. Urgent when it starts within 24 hours. */
async function swapRequested(w: Work, event: EventEnvelope): Promise<NotificationDraft[]> {
  const o = objectOf(event, SwapFields);
  return [{ employeeId: o.toEmployeeId, kind: 'swap_requested', title: 'Shift swap requested', body: `You are asked to take over a shift starting ${minute(o.shiftStart)} UTC.`, subject: { type: 'shift_swap', id: o.id }, locationId: o.locationId, urgent: startsSoon(o.shiftStart, w.now) }];
}

/** `shift.swap_approved`: both employees. Urgent when the shift starts within 24 hours. */
async function swapApproved(w: Work, event: EventEnvelope): Promise<NotificationDraft[]> {
  const o = objectOf(event, SwapFields);
  const at = minute(o.shiftStart);
  const base = { kind: 'swap_decided' as const, title: 'Shift swap approved', subject: { type: 'shift_swap', id: o.id }, locationId: o.locationId, urgent: startsSoon(o.shiftStart, w.now) };
  return [
    { ...base, employeeId: o.fromEmployeeId, body: `Your shift starting ${at} UTC now goes to your colleague.` },
    { ...base, employeeId: o.toEmployeeId, body: `You now work the shift starting ${at} UTC.` },
  ];
}

/** `shift.swap_rejected`: both employees (the shift stays with the one who asked to give it away). Urgent when the shift starts within 24 hours. */
async function swapRejected(w: Work, event: EventEnvelope): Promise<NotificationDraft[]> {
  const o = objectOf(event, SwapFields.extend({ rejectionReason: ShiftSwap.shape.rejectionReason }));
  const at = minute(o.shiftStart);
  const why = o.rejectionReason ? `: ${o.rejectionReason}` : '.';
  const base = { kind: 'swap_decided' as const, title: 'Shift swap rejected', subject: { type: 'shift_swap', id: o.id }, locationId: o.locationId, urgent: startsSoon(o.shiftStart, w.now) };
  return [
    { ...base, employeeId: o.fromEmployeeId, body: `Your swap of the shift starting ${at} UTC is rejected; you still work it${why}` },
    { ...base, employeeId: o.toEmployeeId, body: `The swap of the shift starting ${at} UTC is rejected; you do not take it over${why}` },
  ];
}

/** `time_off.approved` / `time_off.rejected`: the employee. */
async function timeOffDecided(_w: Work, event: EventEnvelope): Promise<NotificationDraft[]> {
  const o = objectOf(event, TimeOffRequest.pick({ id: true, employeeId: true, locationId: true, startDate: true, endDate: true, status: true, rejectionReason: true }));
  const approved = event.type === 'time_off.approved';
  const span = o.startDate === o.endDate ? o.startDate : `${o.startDate} to ${o.endDate}`;
  return [{
    employeeId: o.employeeId,
    kind: 'time_off_decided',
    title: approved ? 'Time off approved' : 'Time off rejected',
    body: approved ? `Your time off (${span}) is approved.` : `Your time off (${span}) is rejected${o.rejectionReason ? `: ${o.rejectionReason}` : '.'}`,
    subject: { type: 'time_off_request', id: o.id },
    locationId: o.locationId,
    urgent: false,
  }];
}

/** `corrective_action.created` with an assignee, or `corrective_action.updated` whose assignee changed to someone: that person. Urgent at priority `urgent`. */
async function correctiveActionAssigned(_w: Work, event: EventEnvelope): Promise<NotificationDraft[]> {
  const o = objectOf(event, CorrectiveAction.pick({ id: true, locationId: true, title: true, priority: true, assigneeId: true, dueAt: true }));
  if (!o.assigneeId) return [];
  if (event.type === 'corrective_action.updated' && !(event.data.previous && 'assigneeId' in event.data.previous)) return [];
  return [{
    employeeId: o.assigneeId,
    kind: 'corrective_action_assigned',
    title: `Corrective action assigned: ${o.title}`,
    body: `You are assigned a ${o.priority}-priority corrective action${o.dueAt ? `, due ${minute(o.dueAt)} UTC` : ''}.`,
    subject: { type: 'corrective_action', id: o.id },
    locationId: o.locationId,
    urgent: o.priority === 'urgent',
  }];
}

/** `work_order.created` with an assignee, or `work_order.updated` whose assignee changed to someone: that person. Urgent at priority `urgent`. */
async function workOrderAssigned(_w: Work, event: EventEnvelope): Promise<NotificationDraft[]> {
  const o = objectOf(event, WorkOrder.pick({ id: true, locationId: true, title: true, priority: true, assigneeEmployeeId: true, dueDate: true }));
  if (!o.assigneeEmployeeId) return [];
  if (event.type === 'work_order.updated' && !(event.data.previous && 'assigneeEmployeeId' in event.data.previous)) return [];
  return [{
    employeeId: o.assigneeEmployeeId,
    kind: 'work_order_assigned',
    title: `Work order assigned: ${o.title}`,
    body: `You are assigned a ${o.priority}-priority work order${o.dueDate ? `, due ${o.dueDate}` : ''}.`,
    subject: { type: 'work_order', id: o.id },
    locationId: o.locationId,
    urgent: o.priority === 'urgent',
  }];
}

/** `announcement.published`: its audience, as fixed at publication. */
async function announcementPublished(w: Work, event: EventEnvelope): Promise<NotificationDraft[]> {
  const o = objectOf(event, Announcement.pick({ id: true, title: true, body: true, acknowledgementRequired: true }));
  const audience = await w.em.find(AnnouncementRecipient, { announcementId: o.id }, { fields: ['employeeId'] });
  const body = o.acknowledgementRequired ? `${o.body}\n\nPlease read and acknowledge it.` : o.body;
  return audience.map((r) => ({ employeeId: r.employeeId, kind: 'announcement_published', title: o.title, body, subject: { type: 'announcement', id: o.id }, locationId: event.locationId ?? null, urgent: false }));
}

/** `communication.announcement.reminded` (internal): those reminded past the deadline. */
async function announcementReminded(_w: Work, event: EventEnvelope): Promise<NotificationDraft[]> {
  const o = objectOf(event, AnnouncementReminded);
  return o.employeeIds.map((employeeId) => ({
    employeeId,
    kind: 'announcement_reminder',
    title: `Reminder: ${o.title}`,
    body: `Please read and acknowledge "${o.title}"; it was due by ${minute(o.acknowledgeBy)} UTC.`,
    subject: { type: 'announcement', id: o.announcementId },
    locationId: event.locationId ?? null,
    urgent: false,
  }));
}

/** How many overdue people an author's notification names; the acknowledgements list has them all. */
const NAMED_OVERDUE = 10;

/**
 * `communication.announcement.overdue` (internal): the author, told once who has not acknowledged by
 * the deadline. The author is told as the employee their account is linked to (an account with no
 * employee record, or an integration, has no notifications: its `authorToldAt` and the
 * acknowledgements list say the same).
 */
async function announcementOverdue(w: Work, event: EventEnvelope): Promise<NotificationDraft[]> {
  const o = objectOf(event, AnnouncementOverdue);
  const author = o.author.type === 'employee' ? o.author.id : o.author.type === 'user' && o.author.id ? (await w.em.findOne(CommunicationEmployee, { userId: o.author.id }, { fields: ['id'] }))?.id : null;
  if (!author) return [];
  const named = await w.em.find(CommunicationEmployee, { id: { $in: o.overdueEmployeeIds.slice(0, NAMED_OVERDUE) } }, { fields: ['id', 'firstName', 'lastName'] });
  const names = new Map(named.map((e) => [e.id, `${e.firstName} ${e.lastName}`.trim()]));
  const list = o.overdueEmployeeIds.slice(0, NAMED_OVERDUE).map((id) => names.get(id) ?? id);
  const more = o.overdueEmployeeIds.length - list.length;
  return [{
    employeeId: author,
    kind: 'announcement_overdue',
    title: `Overdue: ${o.title}`,
    body: `${o.overdueEmployeeIds.length} ${o.overdueEmployeeIds.length === 1 ? 'person' : 'people'} of ${o.audienceCount} had not acknowledged "${o.title}" by ${minute(o.acknowledgeBy)} UTC: ${list.join(', ')}${more > 0 ? ` and ${more} more` : ''}. They were reminded.`,
    subject: { type: 'announcement', id: o.announcementId },
    locationId: event.locationId ?? null,
    urgent: false,
  }];
}

/** What each event type notifies, by topic. */
export const producers: Record<string, { topic: string; make: (w: Work, event: EventEnvelope) => Promise<NotificationDraft[]> }> = {
  'schedule.published': { topic: 'scheduling', make: schedulePublished },
  'open_shift.posted': { topic: 'scheduling', make: openShiftPosted },
  'shift.swap_requested': { topic: 'scheduling', make: swapRequested },
  'shift.swap_approved': { topic: 'scheduling', make: swapApproved },
  'shift.swap_rejected': { topic: 'scheduling', make: swapRejected },
  'time_off.approved': { topic: 'time', make: timeOffDecided },
  'time_off.rejected': { topic: 'time', make: timeOffDecided },
  'corrective_action.created': { topic: 'operations', make: correctiveActionAssigned },
  'corrective_action.updated': { topic: 'operations', make: correctiveActionAssigned },
  'work_order.created': { topic: 'equipment', make: workOrderAssigned },
  'work_order.updated': { topic: 'equipment', make: workOrderAssigned },
  'announcement.published': { topic: 'communication', make: announcementPublished },
  'communication.announcement.reminded': { topic: 'communication', make: announcementReminded },
  'communication.announcement.overdue': { topic: 'communication', make: announcementOverdue },
};
