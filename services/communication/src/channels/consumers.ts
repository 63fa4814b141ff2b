import { defineConsumer } from '@bop/shared';
import { CommunicationEmployee } from '../employees/entities';
import { syncMemberships, type MemberFacts } from './members-store';

/**
 * Keeps location team and department channels in step with people's events (hire, change, transfer,
 * termination, archive); a terminated or archived employee leaves group channels too. When the
 * employee replica already holds a newer state than the event (events of one employee may be applied
 * late), that state decides.
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
      const fromEvent: MemberFacts = { id: o.id, status: o.status, homeLocationId: o.homeLocationId, locationIds: o.locationIds, departmentId: o.departmentId ?? null, version: o.version };
      const replica = await ctx.em.findOne(CommunicationEmployee, { id: o.id });
      const facts = replica && replica.version > fromEvent.version
        ? { id: replica.id, status: replica.status, homeLocationId: replica.homeLocationId, locationIds: replica.locationIds, departmentId: replica.departmentId ?? null, version: replica.version }
        : fromEvent;
      await syncMemberships(ctx, facts);
    },
  }),
];
