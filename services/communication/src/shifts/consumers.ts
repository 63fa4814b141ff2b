import { defineConsumer } from '@bop/shared';
import { recordPublishedShifts, recordShift } from './store';

/** Keeps communication's shift replica from scheduling's `shift.changed`: who is on shift where on a day. */
export const shiftReplicaConsumers = [
  defineConsumer({
    name: 'shift-replica',
    topics: ['scheduling'],
    types: ['shift.changed'],
    handle: async (ctx) => {
      await recordShift(ctx, ctx.event);
    },
  }),
  defineConsumer({
    name: 'shift-publication',
    topics: ['scheduling'],
    types: ['schedule.published'],
    handle: (ctx) => recordPublishedShifts(ctx, ctx.event),
  }),
];
