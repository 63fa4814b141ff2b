import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { PunchTypeName } from '../punches/entities';

type Actor = { type: string; id: string | null };

/** An employee's request to fix a punch of theirs, or to add one they missed. */
export const PunchCorrection = defineEntity({
  name: 'PunchCorrection',
  tableName: 'punch_corrections',
  properties: {
    id: p.string().primary(),
    employeeId: p.string(),
    punchId: p.string().nullable(),
    locationId: p.string(),
    type: p.string().$type<PunchTypeName>(),
    occurredAt: p.datetime(),
    current: p.json<{ type: PunchTypeName; occurredAt: string }>().nullable(),
    reason: p.string(),
    status: p.string().$type<'pending' | 'approved' | 'rejected' | 'cancelled'>(),
    appliedPunchId: p.string().nullable(),
    decidedAt: p.datetime().nullable(),
    decidedBy: p.json<Actor>().nullable(),
    rejectionReason: p.string().nullable(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type PunchCorrection = InferEntity<typeof PunchCorrection>;
