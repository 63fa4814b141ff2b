import { z } from '../zod';
import { Actor, IdParam, ListQuery, Timestamp, listEnvelope } from '../common';
import { IsoDate } from '../identity/company-settings';

const ref = z.string().min(1).max(64);
const text = (max: number) => z.string().trim().min(1).max(max);

export const AnnouncementStatus = z.enum(['draft', 'scheduled', 'published', 'archived']);

/**
 * Who an announcement is for. Each list given narrows the audience (an employee matches one of its
 * entries); none of them: every active employee of the company. `onShift`: the employees with a
 * published shift starting at that location on that (local) day; it names the location itself.
 */
export const AnnouncementAudienceInput = z
  .strictObject({
    locationIds: z.array(ref).max(200).optional().openapi({ description: 'employees working at one of these locations (home or further location); none: every location (needs reach Everyone)' }),
    departmentIds: z.array(ref).max(200).optional().openapi({ description: 'employees of one of these departments' }),
    positions: z.array(text(100)).max(100).optional().openapi({ description: 'employees holding one of these positions' }),
    onShift: z
      .strictObject({ locationId: ref, date: IsoDate.openapi({ description: 'the location\'s local day' }) })
      .nullable()
      .optional()
      .openapi({ description: 'the employees with a published shift at the location starting on that day' }),
  })
  .superRefine((a, ctx) => {
    if (a.onShift && a.locationIds && a.locationIds.length > 0) ctx.addIssue({ code: 'custom', path: ['locationIds'], message: 'An on-shift audience is at the location of onShift; leave locationIds out.' });
  })
  .openapi('AnnouncementAudienceInput');

export const AnnouncementAudience = z
  .object({
    locationIds: z.array(z.string()),
    departmentIds: z.array(z.string()),
    positions: z.array(z.string()),
    onShift: z.object({ locationId: z.string(), date: IsoDate }).nullable(),
  })
  .openapi('AnnouncementAudience');

export const AnnouncementCreate = z
  .strictObject({
    title: text(200).openapi({ example: 'New allergen procedure' }),
    body: text(20000).openapi({ example: 'Read the new allergen procedure and confirm by Friday.' }),
    audience: AnnouncementAudienceInput,
    attachmentIds: z.array(ref).max(20).optional().openapi({ description: 'files uploaded with POST /attachments' }),
    acknowledgementRequired: z.boolean().optional().openapi({ description: 'default false' }),
    acknowledgeBy: Timestamp.nullable().optional().openapi({ description: 'deadline: past it, those who have not acknowledged are reminded once and the author is told who is overdue' }),
    publishAt: Timestamp.nullable().optional().openapi({ description: 'when `:publish` is called: publish then (scheduled) rather than at once' }),
  })
  .superRefine((b, ctx) => {
    if (b.acknowledgeBy && !b.acknowledgementRequired) ctx.addIssue({ code: 'custom', path: ['acknowledgeBy'], message: 'A deadline needs acknowledgementRequired true.' });
  })
  .openapi('AnnouncementCreate');

export const AnnouncementPatch = z
  .strictObject({
    title: text(200).optional(),
    body: text(20000).optional(),
    audience: AnnouncementAudienceInput.optional(),
    attachmentIds: z.array(ref).max(20).optional(),
    acknowledgementRequired: z.boolean().optional(),
    acknowledgeBy: Timestamp.nullable().optional(),
    publishAt: Timestamp.nullable().optional().openapi({ description: 'null on a scheduled announcement takes it back to draft' }),
  })
  .openapi('AnnouncementPatch');

export const AnnouncementPublish = z
  .strictObject({
    publishAt: Timestamp.nullable().optional().openapi({ description: 'overrides the stored publishAt: in the future the announcement is scheduled, else published now' }),
  })
  .openapi('AnnouncementPublish');

export const Announcement = z
  .object({
    id: z.string().openapi({ example: 'ann_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    title: z.string(),
    body: z.string(),
    status: AnnouncementStatus,
    audience: AnnouncementAudience,
    attachmentIds: z.array(z.string()),
    acknowledgementRequired: z.boolean(),
    acknowledgeBy: Timestamp.nullable(),
    publishAt: Timestamp.nullable(),
    publishedAt: Timestamp.nullable(),
    publishedBy: Actor.nullable(),
    archivedAt: Timestamp.nullable(),
    audienceCount: z.number().int().nullable().openapi({ description: 'people in the audience, fixed at publication (null before)' }),
    acknowledgedCount: z.number().int(),
    remindedAt: Timestamp.nullable().openapi({ description: 'when the deadline passed and those who had not acknowledged were reminded (once)' }),
    createdBy: Actor,
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('Announcement');

export const AnnouncementListQuery = ListQuery.extend({
  status: AnnouncementStatus.optional(),
  locationId: ref.optional().openapi({ description: 'announcements whose audience names this location' }),
  updatedSince: Timestamp.optional(),
});

export const AnnouncementAcknowledgementsQuery = ListQuery.extend({
  acknowledged: z.enum(['true', 'false']).optional().openapi({ description: '`false`: only those who have not acknowledged' }),
  updatedSince: Timestamp.optional(),
});

export const AnnouncementRecipient = z
  .object({
    employeeId: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    acknowledgedAt: Timestamp.nullable(),
    remindedAt: Timestamp.nullable().openapi({ description: 'when a reminder went to them (past the deadline, not yet acknowledged)' }),
    overdue: z.boolean().openapi({ description: 'the deadline has passed and they have not acknowledged' }),
  })
  .openapi('AnnouncementRecipient');

export const AnnouncementAcknowledgements = listEnvelope(AnnouncementRecipient)
  .extend({
    announcementId: z.string(),
    acknowledgementRequired: z.boolean(),
    acknowledgeBy: Timestamp.nullable(),
    audienceCount: z.number().int(),
    acknowledgedCount: z.number().int(),
    notAcknowledgedCount: z.number().int(),
    remindedCount: z.number().int(),
    authorToldAt: Timestamp.nullable().openapi({ description: 'when the author was told who is overdue (once)' }),
  })
  .openapi('AnnouncementAcknowledgements');

/** An announcement as its audience sees it in `/me/announcements`. */
export const MyAnnouncement = z
  .object({
    id: z.string(),
    title: z.string(),
    body: z.string(),
    attachmentIds: z.array(z.string()),
    acknowledgementRequired: z.boolean(),
    acknowledgeBy: Timestamp.nullable(),
    publishedAt: Timestamp,
    acknowledgedAt: Timestamp.nullable(),
  })
  .openapi('MyAnnouncement');

/** The reminder past an announcement's deadline (internal event `communication.announcement.reminded`). */
export const AnnouncementReminded = z.object({
  announcementId: z.string(),
  title: z.string(),
  acknowledgeBy: Timestamp,
  employeeIds: z.array(z.string()).openapi({ description: 'reminded: in the audience, not acknowledged' }),
});

/** The author told who is overdue (internal event `communication.announcement.overdue`). */
export const AnnouncementOverdue = z.object({
  announcementId: z.string(),
  title: z.string(),
  acknowledgeBy: Timestamp,
  author: Actor,
  overdueEmployeeIds: z.array(z.string()),
  audienceCount: z.number().int(),
  acknowledgedCount: z.number().int(),
});

export const announcementOperations = {
  'GET /announcements': { query: AnnouncementListQuery, response: listEnvelope(Announcement) },
  'POST /announcements': { body: AnnouncementCreate, response: Announcement, status: 201 },
  'GET /announcements/{id}': { params: IdParam, response: Announcement },
  'PATCH /announcements/{id}': { params: IdParam, body: AnnouncementPatch, response: Announcement },
  'DELETE /announcements/{id}': { params: IdParam, response: Announcement },
  'POST /announcements/{id}:publish': { params: IdParam, body: AnnouncementPublish, response: Announcement },
  'GET /announcements/{id}/acknowledgements': { params: IdParam, query: AnnouncementAcknowledgementsQuery, response: AnnouncementAcknowledgements },
  'GET /me/announcements': { query: ListQuery, response: listEnvelope(MyAnnouncement) },
  'POST /me/announcements/{id}:acknowledge': { params: IdParam, response: MyAnnouncement },
};
