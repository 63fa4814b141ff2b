import type { FilterQuery } from '@mikro-orm/core';
import type { PersonalDataExportRequest, PersonalDataset } from '@bop/contracts';
import type { Work } from '@bop/shared';
import { EmployeeContact, Notification, NotificationDelivery, NotificationPreference } from '../notifications/entities';
import { notificationDto } from '../notifications/my-store';
import { Message } from '../channels/entities';
import { messageDto } from '../channels/dto';
import { Announcement, AnnouncementRecipient } from '../announcements/entities';
import { Recognition } from '../recognitions/entities';
import { recognitionDto } from '../recognitions/dto';

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

type Actor = { type: 'user' | 'integration' | 'system' | 'employee'; id: string | null };

/** The actor shapes the person acted as: their user account, or their employee record (acting as the employee). */
function actorsOf(who: PersonalDataExportRequest): Actor[] {
  const actors: Actor[] = [];
  if (who.userId) actors.push({ type: 'user', id: who.userId });
  if (who.employeeId) actors.push({ type: 'employee', id: who.employeeId });
  return actors;
}

/**
 * Communication's part of `GET /me/export`: the employee's notifications (with their deliveries by
 * email, SMS and push), notification preferences and contact details, the messages they posted, the
 * announcements they were an audience of (with their acknowledgement) and the recognitions they
 * received and gave. The replica of people's employees is people's own data (exported there).
 */
export async function communicationDatasets(w: Work, who: PersonalDataExportRequest): Promise<PersonalDataset[]> {
  const { em } = w;
  const { employeeId } = who;
  const actors = actorsOf(who);
  if (actors.length === 0) return [];
  const notifications = employeeId ? await em.find(Notification, { employeeId }, { orderBy: { id: 'asc' } }) : [];
  const deliveries = employeeId ? await em.find(NotificationDelivery, { employeeId }, { orderBy: { id: 'asc' } }) : [];
  const preference = employeeId ? await em.findOne(NotificationPreference, { employeeId }) : null;
  const contact = employeeId ? await em.findOne(EmployeeContact, { employeeId }) : null;
  const postedBy: FilterQuery<Message>[] = actors.map((a) => ({ author: { type: a.type, id: a.id } }));
  if (employeeId) postedBy.push({ authorEmployeeId: employeeId });
  const messages = await em.find(Message, { $or: postedBy }, { orderBy: { id: 'asc' } });
  const recipients = employeeId ? await em.find(AnnouncementRecipient, { employeeId }, { orderBy: { id: 'asc' } }) : [];
  const announcements = new Map((await em.find(Announcement, { id: { $in: recipients.map((r) => r.announcementId) } })).map((a) => [a.id, a]));
  const received = employeeId ? await em.find(Recognition, { employeeId }, { orderBy: { id: 'asc' } }) : [];
  const given = await em.find(Recognition, { $or: actors.map((a) => ({ givenBy: { type: a.type, id: a.id } })) }, { orderBy: { id: 'asc' } });
  return [
    {
      name: 'notifications',
      description: 'the notifications made for you (in the app and for email, SMS and push), and whether you read them',
      rows: notifications.map((n) => ({ ...notificationDto(n), inApp: n.inApp })),
    },
    {
      name: 'notification-deliveries',
      description: 'your notifications sent by email, SMS or push: held outside your shifts, requested, or skipped (no address)',
      rows: deliveries.map((d) => ({ id: d.id, notificationId: d.notificationId, channel: d.channel, status: d.status, dueAt: iso(d.dueAt), requestedAt: iso(d.requestedAt), reason: d.reason ?? null, createdAt: iso(d.createdAt) })),
    },
    {
      name: 'notification-preferences',
      description: 'the channels you chose per kind of notification (kinds not listed take the defaults)',
      rows: preference ? Object.entries(preference.kinds).map(([kind, channels]) => ({ kind, ...channels, updatedAt: iso(preference.updatedAt) })) : [],
    },
    {
      name: 'contact-details',
      description: 'the email address and phone number notifications are sent to (copied from your employee record)',
      rows: contact ? [{ email: contact.email ?? null, phone: contact.phone ?? null, updatedAt: iso(contact.updatedAt) }] : [],
    },
    { name: 'messages', description: 'the messages you posted in channels', rows: messages.map(messageDto) },
    {
      name: 'announcements',
      description: 'the announcements you were an audience of, and when you acknowledged them',
      rows: recipients.map((r) => {
        const a = announcements.get(r.announcementId);
        return { announcementId: r.announcementId, title: a?.title ?? null, publishedAt: iso(a?.publishedAt), acknowledgementRequired: a?.acknowledgementRequired ?? false, acknowledgedAt: iso(r.acknowledgedAt), acknowledgedBy: r.acknowledgedBy ?? null, remindedAt: iso(r.remindedAt), hidden: r.hidden };
      }),
    },
    { name: 'recognitions-received', description: 'the shout-outs given to you', rows: received.map(recognitionDto) },
    { name: 'recognitions-given', description: 'the shout-outs you gave', rows: given.map(recognitionDto) },
  ];
}
