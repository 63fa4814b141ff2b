import { defineConsumer, type ConsumerDef } from '@bop/shared';
import { deactivateEmployeeUsers } from './store';

/** The employee events whose object may show the employment over. */
const EMPLOYEE_EVENTS = ['employee.terminated', 'employee.updated', 'employee.archived'];

/** Statuses that end a linked user's access; a termination scheduled for a later day is still `active`. */
const ENDED = new Set(['terminated', 'archived']);

/**
 * People announces a terminated or archived employee; every active user linked to it
 * (`employeeId`) is deactivated as `DELETE /users/{id}` does, by the system. The last active owner
 * is left active with a warning, so the event is not retried for ever.
 */
export const employeeAccessConsumer = defineConsumer({
  name: 'employee-access',
  topics: ['people'],
  types: EMPLOYEE_EVENTS,
  async handle(ctx) {
    const { event, log } = ctx;
    const o = event.data.object as { id?: unknown; status?: unknown } | null;
    // a producer's bug: parked in dead_letters rather than dropped
    if (typeof o?.id !== 'string' || typeof o.status !== 'string') throw new Error(`${event.type} ${event.id}: data.object lacks id or status`);
    if (!ENDED.has(o.status)) return;
    const { lastOwners } = await deactivateEmployeeUsers(ctx, o.id);
    for (const userId of lastOwners) {
      log.warn({ userId, employeeId: o.id, eventId: event.id, eventType: event.type }, 'employee ended, but the linked user is the last active owner: left active');
    }
  },
});

export const userConsumers: ConsumerDef[] = [employeeAccessConsumer];
