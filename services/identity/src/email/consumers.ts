import { EmailRequested } from '@bop/contracts';
import { defineConsumer } from '@bop/shared';
import { recordRequestedEmail } from './store';

/**
 * Email other services ask the platform to send (communication's notifications, insights' reports):
 * `communication.email.requested` and `insights.email.requested` carry `{ to, subject, body }`, and
 * identity records it pending for its email worker (SMTP). The kit records the event as processed in
 * the same unit, so an event delivered twice sends one email.
 */
export const emailRequestConsumer = defineConsumer({
  name: 'email-requests',
  topics: ['communication', 'insights'],
  types: ['communication.email.requested', 'insights.email.requested'],
  async handle(ctx) {
    const r = EmailRequested.safeParse(ctx.event.data.object);
    // a producer's bug: parked in dead_letters rather than dropped
    if (!r.success) throw new Error(`${ctx.event.type} ${ctx.event.id}: data.object is not { to, subject, body }`);
    await recordRequestedEmail(ctx, r.data);
  },
});
