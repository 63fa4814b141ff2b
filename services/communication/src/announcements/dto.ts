import type { Announcement, AnnouncementRecipient } from './entities';

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/** An announcement on the wire (and in `announcement.published`). */
export function announcementDto(a: Announcement) {
  return {
    id: a.id,
    title: a.title,
    body: a.body,
    status: a.status,
    audience: a.audience,
    attachmentIds: a.attachmentIds,
    acknowledgementRequired: a.acknowledgementRequired,
    acknowledgeBy: iso(a.acknowledgeBy),
    publishAt: iso(a.publishAt),
    publishedAt: iso(a.publishedAt),
    publishedBy: a.publishedBy ?? null,
    archivedAt: iso(a.archivedAt),
    audienceCount: a.audienceCount ?? null,
    acknowledgedCount: a.acknowledgedCount,
    remindedAt: iso(a.remindedAt),
    createdBy: a.createdBy,
    version: a.version,
    createdAt: iso(a.createdAt)!,
    updatedAt: iso(a.updatedAt)!,
  };
}
export type AnnouncementDto = ReturnType<typeof announcementDto>;

/** An announcement as one person of its audience sees it. */
export function myAnnouncementDto(a: Announcement, r: AnnouncementRecipient) {
  return {
    id: a.id,
    title: a.title,
    body: a.body,
    attachmentIds: a.attachmentIds,
    acknowledgementRequired: a.acknowledgementRequired,
    acknowledgeBy: iso(a.acknowledgeBy),
    publishedAt: iso(a.publishedAt)!,
    acknowledgedAt: iso(r.acknowledgedAt),
  };
}

/** One person of the audience in the acknowledgement list. */
export function recipientDto(r: AnnouncementRecipient, name: { firstName: string; lastName: string } | undefined, overdue: boolean) {
  return {
    employeeId: r.employeeId,
    firstName: name?.firstName ?? '',
    lastName: name?.lastName ?? '',
    acknowledgedAt: iso(r.acknowledgedAt),
    remindedAt: iso(r.remindedAt),
    overdue,
  };
}
