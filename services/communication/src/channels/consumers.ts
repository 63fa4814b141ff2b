import { defineConsumer } from '@bop/shared';
import { syncEmployeeMemberships, type MemberFacts } from './members-store';

/**
 * Keeps location team and department channels in step with people's events (hire, change, transfer,
 * termination, archive); a terminated or archived employee leaves group channels too.
 */
export const channelMembershipConsumers = [
  defineConsumer({
    name: 'channel-membership',
    topics: ['people'],
    types: ['employee.created', 'employee.updated', 'employee.transferred', 'employee.terminated', 'employee.archived'],
    async handle(ctx) {
      const { event } = ctx;
      const o = event.data.object as Partial<MemberFacts> | null;
      if (!o || typeof o.id !== 'string' || typeof o.status !== 'string' || typeof o.homeLocationId !== 'string' || !Array.isArray(o.locationIds) || typeof o.version !== 'number') {
        throw new Error(`${event.type} ${event.id}: data.object is not an employee (id, status, homeLocationId, locationIds, version)`);
      }
      await syncEmployeeMemberships(ctx, { id: o.id, status: o.status, homeLocationId: o.homeLocationId, locationIds: o.locationIds, departmentId: o.departmentId ?? null, version: o.version });
    },
  }),
];
