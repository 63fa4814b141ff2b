import { LockMode } from '@mikro-orm/core';
import { NotFound, actorOf, decodeCursor, pageLimit, toPage, type PageRequest, type Work } from '@bop/shared';
import { Announcement, AnnouncementRecipient } from './entities';
import { myAnnouncementDto } from './dto';
import { announcementEvent } from './store';

/** `GET /me/announcements`: the published announcements whose audience the employee was in at publication, newest first. */
export async function myAnnouncements(w: Work, employeeId: string, page: PageRequest) {
  const before = decodeCursor(page.cursor);
  const n = pageLimit(page.limit);
  // a recipient row is made at publication: its time-ordered id orders by publication
  const rows = await w.em.find(AnnouncementRecipient, { employeeId, hidden: false, ...(before ? { id: { $lt: before } } : {}) }, { orderBy: { id: 'desc' }, limit: n + 1 });
  const announcements = new Map((rows.length > 0 ? await w.em.find(Announcement, { id: { $in: rows.map((r) => r.announcementId) } }) : []).map((a) => [a.id, a]));
  return toPage(rows, n, (r) => myAnnouncementDto(announcements.get(r.announcementId)!, r));
}

/**
 * `POST /me/announcements/{id}:acknowledge`: the first acknowledgement counts (when, actor the employee);
 * again answers the same. 404 for an announcement the employee is not in the audience of, or archived.
 */
export async function acknowledgeAnnouncement(w: Work, employeeId: string, id: string) {
  // the announcement first, then the person's row: the deadline worker locks in the same order
  const announcement = await w.em.findOne(Announcement, { id, status: 'published' }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  const recipient = announcement ? await w.em.findOne(AnnouncementRecipient, { announcementId: id, employeeId, hidden: false }) : null;
  if (!announcement || !recipient) throw new NotFound('announcement', id);
  if (recipient.acknowledgedAt === null) {
    recipient.acknowledgedAt = w.now;
    recipient.acknowledgedBy = actorOf(w.actor);
    recipient.updatedAt = w.now;
    announcement.acknowledgedCount += 1;
    await w.em.flush();
    // the project's own public type (issue 41 item 3): the announcement as GET /announcements/{id} returns it, its count moved; the actor is who acknowledged
    announcementEvent(w, 'announcement.acknowledged', announcement, { acknowledgedCount: announcement.acknowledgedCount - 1 });
  }
  return myAnnouncementDto(announcement, recipient);
}
