import { z } from '../zod';
import { ListQuery, Timestamp, listEnvelope } from '../common';

/** What a notification is about: a closed list, one per event of another area that concerns a person. */
export const NotificationKind = z
  .enum([
    'schedule_published',
    'shift_offered',
    'swap_requested',
    'swap_decided',
    'time_off_decided',
    'corrective_action_assigned',
    'work_order_assigned',
    'announcement_published',
    'announcement_reminder',
    'announcement_overdue',
  ])
  .openapi('NotificationKind');
export type NotificationKind = z.output<typeof NotificationKind>;
export const notificationKinds = NotificationKind.options;

/** The channels a notification goes out on: in the app, by email, and (through a delivery integration) by SMS and push. */
export const NotificationChannel = z.enum(['in_app', 'email', 'sms', 'push']).openapi('NotificationChannel');
export type NotificationChannel = z.output<typeof NotificationChannel>;

export const Notification = z
  .object({
    id: z.string().openapi({ example: 'ntf_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    kind: NotificationKind,
    title: z.string(),
    body: z.string(),
    subject: z.object({ type: z.string(), id: z.string() }).openapi({ description: 'the record it is about, e.g. `{ "type": "shift", "id": "shf_…" }`' }),
    locationId: z.string().nullable(),
    urgent: z.boolean().openapi({ description: 'urgent ones go out on external channels at once, even outside the person\'s shifts' }),
    readAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .openapi('Notification');

export const NotificationListQuery = ListQuery.extend({
  unread: z.enum(['true', 'false']).optional().openapi({ description: '`true`: only those not yet read; `false`: only those read' }),
});

export const NotificationMarkRead = z
  .strictObject({
    ids: z.array(z.string().min(1).max(64)).min(1).max(200).optional().openapi({ description: 'the notifications to mark read (ids that are not yours are ignored)' }),
    all: z.literal(true).optional().openapi({ description: '`true`: every unread notification of yours' }),
  })
  .refine((b) => (b.ids !== undefined) !== (b.all === true), { message: 'Send either ids or "all": true.', path: ['ids'] })
  .openapi('NotificationMarkRead');

export const NotificationsMarked = z
  .object({
    marked: z.number().int().openapi({ description: 'notifications marked read now (those already read are not counted)' }),
    unreadCount: z.number().int().openapi({ description: 'your unread notifications left' }),
  })
  .openapi('NotificationsMarked');

/** One kind's channels. */
export const NotificationChannels = z
  .strictObject({ inApp: z.boolean(), email: z.boolean(), sms: z.boolean(), push: z.boolean() })
  .openapi('NotificationChannels');
export type NotificationChannels = z.output<typeof NotificationChannels>;

const perKind = <T extends z.ZodType>(t: T) => Object.fromEntries(notificationKinds.map((k) => [k, t])) as Record<NotificationKind, T>;

/** `PUT /me/notification-preferences`: the channels of each kind; a kind left out goes back to its defaults. */
export const NotificationPreferencesReplace = z
  .strictObject({ kinds: z.strictObject(perKind(NotificationChannels.optional())) })
  .openapi('NotificationPreferencesReplace');

export const NotificationPreferences = z
  .object({
    kinds: z.object(perKind(NotificationChannels)).openapi({ description: 'every kind, with its channels (the defaults where you chose nothing)' }),
    updatedAt: Timestamp.nullable().openapi({ description: 'when you last replaced them; null: the defaults' }),
  })
  .openapi('NotificationPreferences');

/**
 * `data.object` of `notification.requested` (public event, scope `notifications:deliver`): one
 * notification to send by SMS or push through a delivery integration, with the person's contact
 * details and the message text.
 */
export const NotificationRequested = z
  .object({
    id: z.string().openapi({ description: 'the delivery (one per notification and channel)', example: 'ntd_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    notificationId: z.string(),
    channel: z.enum(['sms', 'push']),
    kind: NotificationKind,
    employeeId: z.string(),
    userId: z.string().nullable().openapi({ description: 'the person\'s user account, for push to their devices' }),
    contact: z.object({ phone: z.string().nullable(), email: z.string().nullable() }).openapi({ description: 'as people holds them; an SMS is requested only with a phone' }),
    title: z.string(),
    body: z.string(),
    urgent: z.boolean(),
    createdAt: Timestamp.openapi({ description: 'when the notification was made (a held one is requested later, at the start of the person\'s next shift)' }),
  })
  .openapi('NotificationRequested');

/** `data.object` of the internal `communication.email.requested` (identity sends it through SMTP). */
export const EmailRequested = z.object({ to: z.string(), subject: z.string(), body: z.string() });

export const notificationOperations = {
  'GET /me/notifications': { query: NotificationListQuery, response: listEnvelope(Notification) },
  'POST /me/notifications:mark-read': { body: NotificationMarkRead, response: NotificationsMarked },
  'GET /me/notification-preferences': { response: NotificationPreferences },
  'PUT /me/notification-preferences': { body: NotificationPreferencesReplace, response: NotificationPreferences },
};
