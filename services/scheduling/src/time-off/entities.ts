import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Approved time off, from time's `time_off.approved` (and its internal cancel event): the days a shift must not fall on. */
export const ApprovedTimeOff = defineEntity({
  name: 'ApprovedTimeOff',
  tableName: 'approved_time_off',
  properties: {
    id: p.string().primary(),
    employeeId: p.string(),
    startDate: p.string().columnType('date'),
    endDate: p.string().columnType('date'),
    partialHours: p.string().nullable(),
    status: p.string().$type<'approved' | 'cancelled'>(),
    version: p.integer(),
  },
});
export type ApprovedTimeOff = InferEntity<typeof ApprovedTimeOff>;
