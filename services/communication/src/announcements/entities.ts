import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

type Actor = { type: 'user' | 'integration' | 'system' | 'employee'; id: string | null };
export type AnnouncementStatus = 'draft' | 'scheduled' | 'published' | 'archived';
export interface Audience {
  locationIds: string[];
  departmentIds: string[];
  positions: string[];
  onShift: { locationId: string; date: string } | null;
}

/** An announcement: a draft, scheduled, published (its audience fixed in recipients) or archived. */
export const Announcement = defineEntity({
  name: 'Announcement',
  tableName: 'announcements',
  properties: {
    id: p.string().primary(),
    title: p.string(),
    body: p.string(),
    status: p.string().$type<AnnouncementStatus>(),
    audience: p.json<Audience>(),
    /** the locations the audience is at (its locationIds, or the on-shift location); empty: company-wide */
    locationIds: p.array().$type<string[]>(),
    attachmentIds: p.array().$type<string[]>(),
    acknowledgementRequired: p.boolean(),
    acknowledgeBy: p.datetime().nullable(),
    publishAt: p.datetime().nullable(),
    publishedAt: p.datetime().nullable(),
    publishedBy: p.json<Actor>().nullable(),
    archivedAt: p.datetime().nullable(),
    audienceCount: p.integer().nullable(),
    acknowledgedCount: p.integer(),
    remindedAt: p.datetime().nullable(),
    authorToldAt: p.datetime().nullable(),
    createdBy: p.json<Actor>(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Announcement = InferEntity<typeof Announcement>;

/** One person of a published announcement's audience (fixed at publication): acknowledged or not, reminded or not. */
export const AnnouncementRecipient = defineEntity({
  name: 'AnnouncementRecipient',
  tableName: 'announcement_recipients',
  properties: {
    id: p.string().primary(),
    announcementId: p.string(),
    employeeId: p.string(),
    /** the announcement is archived: hidden from its audience, kept for the acknowledgement list */
    hidden: p.boolean(),
    acknowledgedAt: p.datetime().nullable(),
    acknowledgedBy: p.json<Actor>().nullable(),
    remindedAt: p.datetime().nullable(),
    /** when the row last changed: published to, acknowledged, reminded, hidden (the acknowledgements list's `updatedSince`) */
    updatedAt: p.datetime(),
  },
});
export type AnnouncementRecipient = InferEntity<typeof AnnouncementRecipient>;
