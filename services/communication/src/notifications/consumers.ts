import { defineConsumer } from '@bop/shared';
import { notify, recordContact } from './store';
import { producers, shiftArrived } from './producer-store';
import { recordShift } from '../shifts/store';

/**
 * Notifications from other areas' events (and communication's own announcements): each producer
 * names the people concerned and the text; `notify` stores one per person and kind (an event
 * delivered twice notifies once) and sends what their preferences choose.
 */
export const notificationConsumers = [
  defineConsumer({
    name: 'notifications',
    topics: [...new Set(Object.values(producers).map((p) => p.topic))],
    types: [...Object.keys(producers), 'shift.changed'],
    handle: async (ctx) => {
      // the shift replica is written here too (the same upsert as shift-replica's, never over a newer
      // version): a schedule.published then finds the drafts its bus delivered before it, and a draft
      // delivered after its publication (Kafka) completes the publication's waiting notice
      if (ctx.event.type === 'shift.changed') {
        await shiftArrived(ctx, await recordShift(ctx, ctx.event));
        return;
      }
      await notify(ctx, ctx.event.id, await producers[ctx.event.type].make(ctx, ctx.event));
    },
  }),
  defineConsumer({
    name: 'employee-contacts',
    topics: ['people'],
    types: ['employee.created', 'employee.updated', 'employee.transferred', 'employee.terminated', 'employee.archived'],
    handle: async (ctx) => {
      const { event } = ctx;
      const o = event.data.object as { id?: unknown; email?: unknown; phone?: unknown; version?: unknown; updatedAt?: unknown };
      // a producer's bug: parked in dead_letters rather than dropped
      if (typeof o.id !== 'string' || typeof o.version !== 'number') throw new Error(`${event.type} ${event.id}: data.object is not an employee (id, version)`);
      const text = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : null);
      await recordContact(ctx, { id: o.id, email: text(o.email), phone: text(o.phone), version: o.version, updatedAt: typeof o.updatedAt === 'string' ? o.updatedAt : event.createdAt });
    },
  }),
];
