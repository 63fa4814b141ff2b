import { defineWorker, type ServiceRuntime } from '@bop/shared';
import type { CommunicationConfig } from '../config';
import { ANNOUNCEMENTS_PER_ROUND as PAGE, deadlinesPassed, publishScheduled, remindOverdue, scheduledDue } from './store';

/**
 * The announcement clock (actor `system`), every COMMUNICATION_ANNOUNCEMENT_CHECK_MS: scheduled
 * announcements whose `publishAt` is reached are published; published ones past their deadline are
 * reminded once (a reminder to those who have not acknowledged, the author told who is overdue).
 */
export const announcementClock = (svc: ServiceRuntime<CommunicationConfig>) =>
  defineWorker({
    name: 'announcement-clock',
    every: () => svc.config.COMMUNICATION_ANNOUNCEMENT_CHECK_MS,
    round: async (r) => {
      let published = 0;
      let reminded = 0;
      // one unit (transaction) per announcement
      const due = await r.read((w) => scheduledDue(w));
      for (const id of due) {
        if (r.stopping) return false;
        published += await r.write((w) => publishScheduled(w, id));
      }
      const passed = await r.read((w) => deadlinesPassed(w));
      for (const id of passed) {
        if (r.stopping) return false;
        reminded += await r.write((w) => remindOverdue(w, id));
      }
      if (published + reminded > 0) svc.log.info({ published, reminded }, 'announcements published and reminded');
      // a full page of either: more may be waiting
      return due.length === PAGE || passed.length === PAGE;
    },
  });
