import { defineConsumer, type ConsumerDef } from '@bop/shared';
import { openShiftsAfter } from './store';

/**
 * People's `employee.terminated` (supplement: terminate unassigns later shifts): the employee's shifts
 * on days after the last day worked (`terminationDate`, at each shift's location) become open.
 */
export const terminationConsumer = defineConsumer({
  name: 'terminated-employee-shifts',
  topics: ['people'],
  types: ['employee.terminated'],
  async handle(ctx) {
    const { event } = ctx;
    const o = event.data.object as { id?: unknown; terminationDate?: unknown } | null;
    if (typeof o?.id !== 'string') throw new Error(`${event.type} ${event.id}: data.object lacks id`);
    if (typeof o.terminationDate !== 'string') return;
    await openShiftsAfter(ctx, o.id, o.terminationDate);
  },
});

export const shiftConsumers: ConsumerDef[] = [terminationConsumer];
