import { defineConsumer, type ConsumerDef } from '@bop/shared';
import { keepTimeOff } from './store';

interface RequestObject {
  id?: unknown;
  employeeId?: unknown;
  startDate?: unknown;
  endDate?: unknown;
  partialHours?: unknown;
  version?: unknown;
}

/**
 * Time's approved time off (`time_off.approved`) and its cancellation before the first day (time's
 * internal `time.time_off_request.cancelled`) kept by request: shifts on those days get a warning and
 * are not claimed. A redelivered or older event changes nothing (the request's version).
 */
export const timeOffConsumer = defineConsumer({
  name: 'approved-time-off',
  topics: ['time'],
  types: ['time_off.approved', 'time.time_off_request.cancelled'],
  async handle(ctx) {
    const { event } = ctx;
    const o = event.data.object as RequestObject | null;
    if (typeof o?.id !== 'string' || typeof o.employeeId !== 'string' || typeof o.startDate !== 'string' || typeof o.endDate !== 'string' || typeof o.version !== 'number') {
      throw new Error(`${event.type} ${event.id}: data.object lacks the request's id, employeeId, dates or version`);
    }
    await keepTimeOff(ctx, {
      id: o.id,
      employeeId: o.employeeId,
      startDate: o.startDate,
      endDate: o.endDate,
      partialHours: typeof o.partialHours === 'string' ? o.partialHours : null,
      status: event.type === 'time_off.approved' ? 'approved' : 'cancelled',
      version: o.version,
    });
  },
});

export const timeOffConsumers: ConsumerDef[] = [timeOffConsumer];
