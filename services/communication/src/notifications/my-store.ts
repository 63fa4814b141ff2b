import type { z } from 'zod';
import type { NotificationListQuery, NotificationMarkRead, NotificationPreferencesReplace } from '@bop/contracts';
import { notificationKinds } from '@bop/contracts';
import { decodeCursor, pageLimit, toPage, type Work } from '@bop/shared';
import type { FilterQuery } from '@mikro-orm/core';
import { Notification, NotificationPreference } from './entities';
import { channelsOf } from './rules';

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

export function notificationDto(n: Notification) {
  return {
    id: n.id,
    kind: n.kind,
    title: n.title,
    body: n.body,
    subject: { type: n.subjectType, id: n.subjectId },
    locationId: n.locationId,
    urgent: n.urgent,
    readAt: iso(n.readAt),
    createdAt: iso(n.createdAt)!,
  };
}

/** `GET /me/notifications`: the person's in-app notifications, newest first; `unread` filters. */
export async function myNotifications(w: Work, employeeId: string, query: z.output<typeof NotificationListQuery>) {
  const before = decodeCursor(query.cursor);
  const n = pageLimit(query.limit);
  const where: FilterQuery<Notification> = { employeeId, inApp: true };
  if (query.unread === 'true') where.readAt = null;
  if (query.unread === 'false') where.readAt = { $ne: null };
  if (before) where.id = { $lt: before };
  // time-ordered ids: newest first
  const rows = await w.em.find(Notification, where, { orderBy: { id: 'desc' }, limit: n + 1 });
  return toPage(rows, n, notificationDto);
}

/** `POST /me/notifications:mark-read`: the listed ones (others' ids are ignored), or all; those already read keep their time. */
export async function markRead(w: Work, employeeId: string, body: z.output<typeof NotificationMarkRead>) {
  const mine: FilterQuery<Notification> = { employeeId, inApp: true, readAt: null };
  const marked = await w.em.nativeUpdate(Notification, body.all ? mine : { ...mine, id: { $in: body.ids! } }, { readAt: w.now });
  const unreadCount = await w.em.count(Notification, { employeeId, inApp: true, readAt: null });
  return { marked, unreadCount };
}

/** Every kind with the person's channels (their choice, else the defaults). */
async function preferencesOf(w: Work, employeeId: string) {
  const row = await w.em.findOne(NotificationPreference, { employeeId });
  return {
    kinds: Object.fromEntries(notificationKinds.map((k) => [k, channelsOf(row?.kinds, k)])) as Record<(typeof notificationKinds)[number], ReturnType<typeof channelsOf>>,
    updatedAt: iso(row?.updatedAt ?? null),
  };
}

export const myPreferences = (w: Work, employeeId: string) => preferencesOf(w, employeeId);

/** `PUT /me/notification-preferences`: replaces the person's choices; a kind left out goes back to its defaults. */
export async function replacePreferences(w: Work, employeeId: string, body: z.output<typeof NotificationPreferencesReplace>) {
  const kinds = Object.fromEntries(Object.entries(body.kinds).filter(([, c]) => c !== undefined));
  await w.em.upsert(NotificationPreference, { employeeId, kinds, updatedAt: w.now });
  return preferencesOf(w, employeeId);
}
