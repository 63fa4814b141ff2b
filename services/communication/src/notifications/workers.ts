import { defineWorker, type ServiceRuntime } from '@bop/shared';
import type { CommunicationConfig } from '../config';
import { DELIVERIES_PER_ROUND, heldDue, releaseHeld } from './store';

/**
 * Quiet hours' other half (actor `system`), every COMMUNICATION_NOTIFICATION_CHECK_MS: deliveries held
 * outside a person's shifts go out once their next shift has started (held again if the shift moved).
 */
export const notificationDelivery = (svc: ServiceRuntime<CommunicationConfig>) =>
  defineWorker({
    name: 'notification-delivery',
    every: () => svc.config.COMMUNICATION_NOTIFICATION_CHECK_MS,
    round: async (r) => {
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
