import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * Replica of scheduling's shifts, fed by `shift.changed`: who is on shift at a location on a day, for
 * an announcement's "on shift" audience. Only what that needs.
 */
export const CommunicationShift = defineEntity({
  name: 'CommunicationShift',
  tableName: 'shifts',
  properties: {
    id: p.string().primary(),
    locationId: p.string(),
    employeeId: p.string().nullable(),
    position: p.string(),
    startAt: p.datetime(),
    endAt: p.datetime(),
    /** the location's local day the shift starts on */
    localDate: p.string().columnType('date'),
    status: p.string().$type<'draft' | 'published' | 'archived'>(),
    version: p.integer(),
    updatedAt: p.datetime(),
  },
});
export type CommunicationShift = InferEntity<typeof CommunicationShift>;

/**
 * Shifts a `schedule.published` named, with when: a draft's `shift.changed` that arrives after the
 * publication (Kafka keeps no order between a shift's key and its location's) is recorded published.
 */
export const PublishedShift = defineEntity({
  name: 'PublishedShift',
  tableName: 'published_shifts',
  properties: {
    shiftId: p.string().primary(),
    publishedAt: p.datetime(),
  },
});
export type PublishedShift = InferEntity<typeof PublishedShift>;
