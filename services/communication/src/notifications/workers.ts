import { defineWorker, type ServiceRuntime } from '@bop/shared';
import type { CommunicationConfig } from '../config';
import { DELIVERIES_PER_ROUND, heldDue, releaseHeld } from './store';
import { noticeTimedOut, staleNotices } from './producer-store';

/**
 * Quiet hours' other half (actor `system`), every COMMUNICATION_NOTIFICATION_CHECK_MS: deliveries held
 * outside a person's shifts go out once their next shift has started (held again if the shift moved).
 * Also a schedule publication that has waited too long for some of its drafts notifies those known.
 */
export const notificationDelivery = (svc: ServiceRuntime<CommunicationConfig>) =>
  defineWorker({
    name: 'notification-delivery',
    every: () => svc.config.COMMUNICATION_NOTIFICATION_CHECK_MS,
    round: async (r) => {
      let notified = 0;
      for (const eventId of await r.read((w) => staleNotices(w))) {
        if (r.stopping) return false;
        notified += await r.write((w) => noticeTimedOut(w, eventId));
      }
      if (notified > 0) svc.log.warn({ notified }, 'schedule publications notified without some of their drafts');
      // one unit (transaction) per delivery
      const due = await r.read((w) => heldDue(w));
      let sent = 0;
      for (const id of due) {
        if (r.stopping) return false;
        sent += await r.write((w) => releaseHeld(w, id));
      }
      if (sent > 0) svc.log.info({ sent }, 'held notifications delivered');
      return due.length === DELIVERIES_PER_ROUND;
    },
  });
