import { LockMode } from '@mikro-orm/core';
import type { NotificationKind } from '@bop/contracts';
import { newId, type Work } from '@bop/shared';
import { CommunicationEmployee } from '../employees/entities';
import { CommunicationShift } from '../shifts/entities';
import { EmployeeContact, Notification, NotificationDelivery, NotificationPreference, type ExternalChannel } from './entities';
import { channelsOf, heldUntil } from './rules';

/** A notification an event makes for one person. */
export interface NotificationDraft {
  employeeId: string;
  kind: NotificationKind;
  title: string;
  body: string;
  subject: { type: string; id: string };
  locationId: string | null;
  urgent: boolean;
}

const EXTERNAL: readonly ExternalChannel[] = ['email', 'sms', 'push'];

/** The published shifts of these people not yet ended, per person (quiet hours). */
async function shiftsAhead(w: Work, employeeIds: string[]): Promise<Map<string, Array<{ startAt: Date; endAt: Date }>>> {
  const byEmployee = new Map<string, Array<{ startAt: Date; endAt: Date }>>();
  if (employeeIds.length === 0) return byEmployee;
  const rows = await w.em.find(CommunicationShift, { employeeId: { $in: employeeIds }, status: 'published', endAt: { $gt: w.now } }, { fields: ['employeeId', 'startAt', 'endAt'] });
  for (const s of rows) {
    const list = byEmployee.get(s.employeeId!) ?? [];
    list.push({ startAt: s.startAt, endAt: s.endAt });
    byEmployee.set(s.employeeId!, list);
  }
  return byEmployee;
}

/**
 * Stores the notifications an event makes (at most one per person and kind: those the event already
 * made are skipped, so an event delivered twice notifies once) with each person's channels for the
 * kind: in the app (`/me/notifications`), and on each external channel chosen a delivery, sent now
 * or held until the person's next shift (quiet hours). Answers how many were made.
 */
export async function notify(w: Work, eventId: string, drafts: NotificationDraft[]): Promise<number> {
  const unique = new Map(drafts.map((d) => [`${d.employeeId} ${d.kind}`, d]));
  if (unique.size === 0) return 0;
  const employeeIds = [...new Set([...unique.values()].map((d) => d.employeeId))];
  const made = await w.em.find(Notification, { eventId }, { fields: ['employeeId', 'kind'] });
  for (const n of made) unique.delete(`${n.employeeId} ${n.kind}`);
  if (unique.size === 0) return 0;
  const chosen = new Map((await w.em.find(NotificationPreference, { employeeId: { $in: employeeIds } })).map((p) => [p.employeeId, p.kinds]));
  const rows = [...unique.values()].map((d) => {
    const channels = channelsOf(chosen.get(d.employeeId), d.kind);
    const row = {
      id: newId('notification'),
      employeeId: d.employeeId,
      kind: d.kind,
      eventId,
      title: d.title,
      body: d.body,
      subjectType: d.subject.type,
      subjectId: d.subject.id,
      locationId: d.locationId,
      urgent: d.urgent,
      inApp: channels.inApp,
      readAt: null,
      createdAt: w.now,
    };
    return { row, external: EXTERNAL.filter((c) => channels[c]) };
  });
  // the ORM's multi-row insert: a schedule for thousands builds no entity per person
  await w.em.insertMany(Notification, rows.map((r) => r.row));
  const outward = rows.filter((r) => r.external.length > 0);
  if (outward.length > 0) {
    const ids = [...new Set(outward.map((r) => r.row.employeeId))];
    // one after the other: the unit's transaction is one connection
    const shifts = await shiftsAhead(w, ids.filter((id) => outward.some((r) => r.row.employeeId === id && !r.row.urgent)));
    const people = await peopleOf(w, ids);
    const deliveries: DeliveryDraft[] = [];
    for (const { row, external } of outward) {
      const until = heldUntil(row.urgent, shifts.get(row.employeeId) ?? [], w.now);
      for (const channel of external) {
        const d: DeliveryDraft = { id: newId('notificationDelivery'), notificationId: row.id, employeeId: row.employeeId, channel, status: 'held', dueAt: until, requestedAt: null, reason: null, createdAt: w.now };
        if (!until) request(w, row, d, people.get(row.employeeId));
        deliveries.push(d);
      }
    }
    await w.em.insertMany(NotificationDelivery, deliveries);
  }
  return rows.length;
}

interface Person {
  email: string | null;
  phone: string | null;
  userId: string | null;
}

/** Contact details (people's events) and user accounts of these people. */
async function peopleOf(w: Work, employeeIds: string[]): Promise<Map<string, Person>> {
  const contacts = await w.em.find(EmployeeContact, { employeeId: { $in: employeeIds } });
  const employees = await w.em.find(CommunicationEmployee, { id: { $in: employeeIds } }, { fields: ['id', 'userId'] });
  const c = new Map(contacts.map((x) => [x.employeeId, x]));
  const u = new Map(employees.map((e) => [e.id, e.userId]));
  return new Map(employeeIds.map((id) => [id, { email: c.get(id)?.email ?? null, phone: c.get(id)?.phone ?? null, userId: u.get(id) ?? null }]));
}

type DeliveryDraft = Pick<NotificationDelivery, 'id' | 'notificationId' | 'employeeId' | 'channel' | 'status' | 'dueAt' | 'requestedAt' | 'reason' | 'createdAt'>;
type NotificationRow = Pick<Notification, 'id' | 'employeeId' | 'kind' | 'title' | 'body' | 'locationId' | 'urgent' | 'createdAt'>;
type DeliveryRow = Pick<NotificationDelivery, 'id' | 'channel' | 'status' | 'dueAt' | 'requestedAt' | 'reason'>;

/**
 * Sends a delivery now: email as the internal `communication.email.requested` (identity's SMTP
 * sending), SMS and push as the public `notification.requested` for a delivery integration; an email
 * without an address, or an SMS without a phone, is skipped with the reason.
 */
function request(w: Work, n: NotificationRow, d: DeliveryRow, person: Person | undefined): void {
  d.dueAt = null;
  if (d.channel === 'email') {
    if (!person?.email) return skip(d, 'no email address on the employee record');
    w.emit({
      type: 'communication.email.requested',
      aggregateType: 'notification',
      aggregateId: n.id,
      locationId: n.locationId ?? null,
      object: { to: person.email, subject: n.title, body: `${n.body}\n\nYou get this email because of your notification preferences; change them in the app (notification preferences).` },
    });
  } else {
    if (d.channel === 'sms' && !person?.phone) return skip(d, 'no phone number on the employee record');
    w.emit({
      type: 'notification.requested',
      aggregateType: 'notification',
      aggregateId: n.id,
      locationId: n.locationId ?? null,
      object: {
        id: d.id,
        notificationId: n.id,
        channel: d.channel,
        kind: n.kind,
        employeeId: n.employeeId,
        userId: person?.userId ?? null,
        contact: { phone: person?.phone ?? null, email: person?.email ?? null },
        title: n.title,
        body: n.body,
        urgent: n.urgent,
        createdAt: new Date(n.createdAt).toISOString(),
      },
    });
  }
  d.status = 'requested';
  d.requestedAt = w.now;
}

function skip(d: DeliveryRow, reason: string): void {
  d.status = 'skipped';
  d.reason = reason;
}

/** Deliveries a worker round takes. */
export const DELIVERIES_PER_ROUND = 100;

/** Held deliveries whose time has come (for the worker). */
export async function heldDue(w: Work): Promise<string[]> {
  const rows = await w.em.find(NotificationDelivery, { status: 'held', dueAt: { $lte: w.now } }, { fields: ['id'], orderBy: { dueAt: 'asc' }, limit: DELIVERIES_PER_ROUND });
  return rows.map((r) => r.id);
}

/**
 * A held delivery come due (its shift started): sent now if the person is on shift (or has no shift
 * ahead any more), otherwise held again until their next shift starts (the shift was moved or
 * removed). 1 when it was sent (or skipped).
 */
export async function releaseHeld(w: Work, id: string): Promise<number> {
  const d = await w.em.findOne(NotificationDelivery, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!d || d.status !== 'held' || !d.dueAt || d.dueAt.getTime() > w.now.getTime()) return 0;
  const n = await w.em.findOneOrFail(Notification, { id: d.notificationId });
  const until = heldUntil(n.urgent, (await shiftsAhead(w, [d.employeeId])).get(d.employeeId) ?? [], w.now);
  if (until) {
    d.dueAt = until;
    await w.em.flush();
    return 0;
  }
  request(w, n, d, (await peopleOf(w, [d.employeeId])).get(d.employeeId));
  await w.em.flush();
  return 1;
}

/** Writes a person's contact details from people's `employee.*` event (a replayed older version never overwrites a newer one). */
export async function recordContact(w: Work, o: { id: string; email: string | null; phone: string | null; version: number; updatedAt: string }): Promise<void> {
  await w.em
    .createQueryBuilder(EmployeeContact)
    .insert({ employeeId: o.id, email: o.email, phone: o.phone, version: o.version, updatedAt: new Date(o.updatedAt) })
    .onConflict('employeeId')
    .merge(['email', 'phone', 'version', 'updatedAt'])
    .where({ version: { $lte: o.version } })
    .execute();
}
