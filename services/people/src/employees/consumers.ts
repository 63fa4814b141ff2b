import { defineConsumer, type ConsumerDef } from '@bop/shared';
import { linkUser } from './user-link-store';

/** The user linked to each employee, from identity's user events (the link is set on the user). */
export const userLinkConsumers: ConsumerDef[] = [
  defineConsumer({
    name: 'employee-user-link',
    topics: ['identity'],
    types: ['identity.user.created', 'identity.user.updated', 'identity.user.deactivated', 'identity.user.reactivated'],
    async handle(ctx) {
      const { event } = ctx;
      const o = event.data.object as { id?: string; employeeId?: string | null };
      if (!o.id) throw new Error(`${event.type} ${event.id}: data.object lacks id`);
      await linkUser(ctx, o.id, o.employeeId ?? null);
    },
  }),
];
