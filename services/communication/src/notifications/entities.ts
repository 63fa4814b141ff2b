import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { NotificationChannels, NotificationKind } from '@bop/contracts';

/** One notification to one person, made from one event (at most one per event, person and kind). */
export const Notification = defineEntity({
  name: 'Notification',
  tableName: 'notifications',
  properties: {
    id: p.string().primary(),
    employeeId: p.string(),
    kind: p.string().$type<NotificationKind>(),
    /** the event it was made from */
    eventId: p.string(),
    title: p.string(),
    body: p.text(),
    subjectType: p.string(),
    subjectId: p.string(),
    locationId: p.string().nullable(),
    urgent: p.boolean(),
    /** shown in `/me/notifications` (the person's in-app choice for its kind when it was made) */
    inApp: p.boolean(),
    readAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
});
export type Notification = InferEntity<typeof Notification>;

/** A person's channels per kind (only the kinds they chose; the others take the defaults). */
export const NotificationPreference = defineEntity({
  name: 'NotificationPreference',
  tableName: 'notification_preferences',
  properties: {
    employeeId: p.string().primary(),
    kinds: p.json<Partial<Record<NotificationKind, NotificationChannels>>>(),
    updatedAt: p.datetime(),
  },
});
export type NotificationPreference = InferEntity<typeof NotificationPreference>;

export type ExternalChannel = 'email' | 'sms' | 'push';

/** A notification on an external channel: held (outside the person's shifts) until `dueAt`, requested, or skipped (no address). */
export const NotificationDelivery = defineEntity({
  name: 'NotificationDelivery',
  tableName: 'notification_deliveries',
  properties: {
    id: p.string().primary(),
    notificationId: p.string(),
    employeeId: p.string(),
    channel: p.string().$type<ExternalChannel>(),
    status: p.string().$type<'held' | 'requested' | 'skipped'>(),
    dueAt: p.datetime().nullable(),
    requestedAt: p.datetime().nullable(),
    reason: p.text().nullable(),
    createdAt: p.datetime(),
  },
});
export type NotificationDelivery = InferEntity<typeof NotificationDelivery>;

/** People's contact details (from `employee.*` events): where email goes, the phone an SMS integration uses. */
export const EmployeeContact = defineEntity({
  name: 'EmployeeContact',
  tableName: 'employee_contacts',
  properties: {
    employeeId: p.string().primary(),
    email: p.string().nullable(),
    phone: p.string().nullable(),
    version: p.integer(),
    updatedAt: p.datetime(),
  },
});
export type EmployeeContact = InferEntity<typeof EmployeeContact>;

/**
 * A `schedule.published` some of whose shifts the shift replica has not heard of yet (on Kafka the
 * publication may overtake its drafts' `shift.changed`): its notifications are made when the last of
 * `waitingShiftIds` arrives, then the row is deleted.
 */
export const ScheduleNotice = defineEntity({
  name: 'ScheduleNotice',
  tableName: 'schedule_notices',
  properties: {
    eventId: p.string().primary(),
    locationId: p.string(),
    fromDate: p.string(),
    toDate: p.string(),
    shiftIds: p.array().$type<string[]>(),
    waitingShiftIds: p.array().$type<string[]>(),
    receivedAt: p.datetime(),
  },
});
export type ScheduleNotice = InferEntity<typeof ScheduleNotice>;
