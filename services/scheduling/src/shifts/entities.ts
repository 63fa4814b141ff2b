import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export type ShiftStatus = 'draft' | 'published' | 'archived';

/** What another area's change says about a shift (approved time off on its day), until that change is undone. */
export interface ShiftFlag {
  code: 'time_off';
  message: string;
  /** the time-off request */
  sourceId: string;
}

/** A shift at a location for a position, worked by an employee or open; start and end in UTC. */
export const Shift = defineEntity({
  name: 'Shift',
  tableName: 'shifts',
  properties: {
    id: p.string().primary(),
    externalId: p.string().nullable(),
    locationId: p.string(),
    position: p.string(),
    employeeId: p.string().nullable(),
    start: p.datetime(),
    end: p.datetime(),
    breakMinutes: p.integer(),
    notes: p.string().nullable(),
    status: p.string().$type<ShiftStatus>(),
    flags: p.json<ShiftFlag[]>(),
    publishedAt: p.datetime().nullable(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Shift = InferEntity<typeof Shift>;
