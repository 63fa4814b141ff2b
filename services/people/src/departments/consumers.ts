import { defineConsumer, type ConsumerDef } from '@bop/shared';
import { upsertDepartment } from './replica-store';

/** Keeps `people.departments` from organization's department events (an older event never overwrites a newer state). */
export const departmentConsumers: ConsumerDef[] = [
  defineConsumer({
    name: 'department-replica',
    topics: ['organization'],
    types: ['department.created', 'department.updated', 'department.archived'],
    async handle(ctx) {
      const { event } = ctx;
      const o = event.data.object as { id?: string; locationId?: string | null; status?: string; updatedAt?: string };
      if (!o.id || !o.status) throw new Error(`${event.type} ${event.id}: data.object lacks id or status`);
      await upsertDepartment(ctx, { id: o.id, locationId: o.locationId ?? null, status: o.status, updatedAt: o.updatedAt ?? event.createdAt });
    },
  }),
];
