import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { FieldChange } from './changes';

/** The audit trail: one row per change to an employee record (who, what fields, old and new values, when). */
export const Activity = defineEntity({
  name: 'Activity',
  tableName: 'activity',
  properties: {
    id: p.string().primary(),
    employeeId: p.string(),
    at: p.datetime(),
    actor: p.json<{ type: string; id: string | null }>(),
    action: p.string(),
    changes: p.json<FieldChange[]>(),
  },
});
export type Activity = InferEntity<typeof Activity>;
