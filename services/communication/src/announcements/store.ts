import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import type { AnnouncementAcknowledgementsQuery, AnnouncementAudienceInput, AnnouncementCreate, AnnouncementListQuery, AnnouncementPatch, AnnouncementPublish } from '@bop/contracts';
import {
  Conflict,
  NotFound,
  ValidationError,
  actorOf,
  assertCompanyWide,
  assertLocationInReach,
  changedFields,
  findPage,
  mapPage,
  newId,
  reachableLocationIds,
  writableLocations,
  type FieldError,
  type ReachSet,
  type Work,
} from '@bop/shared';
import { Announcement, AnnouncementRecipient, type Audience } from './entities';
import { announcementDto, recipientDto } from './dto';
import { deadlineError, eventLocationId, isOverdue, publicationOutcome } from './publication';
import { audienceOf } from './audience-store';
import { CommunicationEmployee } from '../employees/entities';
import { attachmentErrors, shareAttachments } from '../attachment-audiences/store';

const toDate = (s: string | null | undefined) => (s ? new Date(s) : null);

/** The audience as stored: every list present (empty when not given), no repeats. */
function audienceFrom(input: z.output<typeof AnnouncementAudienceInput>): Audience {
  const distinct = (xs: string[] | undefined) => [...new Set(xs ?? [])];
  return { locationIds: distinct(input.locationIds), departmentIds: distinct(input.departmentIds), positions: distinct(input.positions), onShift: input.onShift ?? null };
}

/** The locations an audience is at: its locations, or the on-shift location; none: company-wide. */
const audienceLocations = (a: Audience) => (a.onShift ? [a.onShift.locationId] : a.locationIds);

/** Refuses (403 out_of_reach) an announcement at a location the reach does not cover, or a company-wide one without reach Everyone. */
function assertAnnouncementInReach(reach: ReachSet, locationIds: readonly string[]): void {
  if (locationIds.length === 0) assertCompanyWide(reach, 'Announcements to every location');
  for (const id of locationIds) assertLocationInReach(reach, id);
}

/**
 * Field errors of what a draft names: its locations (unknown or archived, as organization says) and its
 * attachments (unknown, deleted or not visible to the caller, as the files service says).
 */
async function draftErrors(w: Work, audience: Audience, attachmentIds: string[]): Promise<FieldError[]> {
  const refs = audience.onShift
    ? [{ id: audience.onShift.locationId, path: 'audience.onShift.locationId', takes: 'announcements' }]
    : audience.locationIds.map((id, i) => ({ id, path: `audience.locationIds[${i}]`, takes: 'announcements' }));
  const errors: FieldError[] = refs.length > 0 ? (await writableLocations(w, refs)).errors : [];
  errors.push(...(await attachmentErrors(w, attachmentIds)));
  return errors;
}

/**
 * The announcement's change events (the project's own public types, issue 41 item 3): data.object the
 * announcement as the API returns it; the location when its audience names one, else null (as `announcement.published`).
 */
export const announcementEvent = (w: Work, type: 'announcement.created' | 'announcement.updated' | 'announcement.archived' | 'announcement.acknowledged', row: Announcement, previous?: Record<string, unknown>) => {
  const dto = announcementDto(row);
  w.emit({ type, aggregateType: 'announcement', aggregateId: row.id, locationId: eventLocationId(row.locationIds), object: dto, ...(previous ? { previous } : {}) });
  return dto;
};

/** `POST /announcements` (supplement: Announcement → `draft`). */
export async function createAnnouncement(w: Work, body: z.output<typeof AnnouncementCreate>) {
  const audience = audienceFrom(body.audience);
  const locationIds = audienceLocations(audience);
  assertAnnouncementInReach(w.reach(), locationIds);
  const attachmentIds = [...new Set(body.attachmentIds ?? [])];
  const errors = await draftErrors(w, audience, attachmentIds);
  if (errors.length > 0) throw new ValidationError(errors);
  const row = w.em.create(Announcement, {
    id: newId('announcement'),
    title: body.title,
    body: body.body,
    status: 'draft',
    audience,
    locationIds,
    attachmentIds,
    acknowledgementRequired: body.acknowledgementRequired ?? false,
    acknowledgeBy: toDate(body.acknowledgeBy),
    publishAt: toDate(body.publishAt),
    publishedAt: null,
    publishedBy: null,
    archivedAt: null,
    audienceCount: null,
    acknowledgedCount: 0,
    remindedAt: null,
    authorToldAt: null,
    createdBy: actorOf(w.actor),
    version: 1,
    createdAt: w.now,
    updatedAt: w.now,
  });
  await w.em.flush();
  return announcementEvent(w, 'announcement.created', row);
}

async function announcementInReach(w: Work, id: string, lock = false): Promise<Announcement> {
  const row = await w.em.findOne(Announcement, { id }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!row) throw new NotFound('announcement', id);
  assertAnnouncementInReach(w.reach(), row.locationIds);
  return row;
}

export async function getAnnouncement(w: Work, id: string) {
  return announcementDto(await announcementInReach(w, id));
}

/** `GET /announcements`: oldest first; those whose every location the reach covers (company-wide ones for reach Everyone). */
export async function listAnnouncements(w: Work, query: z.output<typeof AnnouncementListQuery>) {
  const { limit, cursor, updatedSince, status, locationId } = query;
  if (locationId) assertLocationInReach(w.reach(), locationId);
  const reachable = reachableLocationIds(w.reach());
  return mapPage(
    await findPage(w.em, Announcement, [
      status && { status },
      locationId && { locationIds: { $contains: [locationId] } },
      reachable && { locationIds: { $overlap: reachable } },
      reachable && { locationIds: { $contained: reachable } },
    ], { limit, cursor, updatedSince }),
    announcementDto,
  );
}

/** An announcement locked for a change (404, 403 out_of_reach, 409 version_mismatch), in a state the change starts from (else 409 `conflict`). */
async function announcementFor(w: Work, id: string, from: Announcement['status'][], what: string): Promise<Announcement> {
  const row = await announcementInReach(w, id, true);
  w.checkVersion(row.version);
  if (!from.includes(row.status)) throw new Conflict(`Announcement ${id} is ${row.status}; only ${from.map((s) => `a ${s}`).join(' or ')} announcement ${what}.`);
  return row;
}

/** `PATCH /announcements/{id}`: a draft or scheduled one; `publishAt` null takes a scheduled one back to `draft`. */
export async function patchAnnouncement(w: Work, id: string, body: z.output<typeof AnnouncementPatch>) {
  const row = await announcementFor(w, id, ['draft', 'scheduled'], 'can be changed');
  const before = announcementDto(row);
  const errors: FieldError[] = [];
  if (body.audience !== undefined || body.attachmentIds !== undefined) {
    const audience = body.audience !== undefined ? audienceFrom(body.audience) : row.audience;
    const attachmentIds = body.attachmentIds !== undefined ? [...new Set(body.attachmentIds)] : row.attachmentIds;
    if (body.audience !== undefined) assertAnnouncementInReach(w.reach(), audienceLocations(audience));
    // only what the change names is checked again
    errors.push(...(await draftErrors(w, body.audience !== undefined ? audience : { locationIds: [], departmentIds: [], positions: [], onShift: null }, body.attachmentIds !== undefined ? attachmentIds : [])));
    row.audience = audience;
    row.locationIds = audienceLocations(audience);
    row.attachmentIds = attachmentIds;
  }
  if (body.title !== undefined) row.title = body.title;
  if (body.body !== undefined) row.body = body.body;
  if (body.acknowledgementRequired !== undefined) row.acknowledgementRequired = body.acknowledgementRequired;
  if (body.acknowledgeBy !== undefined) row.acknowledgeBy = toDate(body.acknowledgeBy);
  if (row.acknowledgeBy && !row.acknowledgementRequired) errors.push({ path: 'acknowledgeBy', message: 'A deadline needs acknowledgementRequired true.' });
  if (body.publishAt !== undefined) {
    row.publishAt = toDate(body.publishAt);
    // spec: scheduled, PATCH with publishAt = null → draft
    if (row.status === 'scheduled' && row.publishAt === null) row.status = 'draft';
  }
  if (row.status === 'scheduled') {
    const e = deadlineError(row.acknowledgeBy, row.publishAt!);
    if (e) errors.push({ path: 'acknowledgeBy', message: e });
  }
  if (errors.length > 0) throw new ValidationError(errors);
  row.version += 1;
  row.updatedAt = w.now;
  await w.em.flush();
  return announcementEvent(w, 'announcement.updated', row, changedFields(before, announcementDto(row)));
}

/** `DELETE /announcements/{id}` (supplement: any → `archived`, final): hidden from its audience, acknowledgements kept. */
export async function archiveAnnouncement(w: Work, id: string) {
  const row = await announcementInReach(w, id, true);
  w.checkVersion(row.version);
  if (row.status === 'archived') return announcementDto(row);
  const before = announcementDto(row);
  row.status = 'archived';
  row.archivedAt = w.now;
  row.version += 1;
  row.updatedAt = w.now;
  await w.em.nativeUpdate(AnnouncementRecipient, { announcementId: id }, { hidden: true, updatedAt: w.now });
  await w.em.flush();
  // hidden from the audience: so are its attachments (those shared at publication)
  if (row.publishedAt && row.attachmentIds.length > 0) shareAttachments(w, { audienceType: 'announcement', audienceId: id, version: row.version, employeeIds: [], attachmentIds: [], locationId: eventLocationId(row.locationIds) });
  const dto = announcementDto(row);
  // internal: team displays drop it at once
  w.emit({ type: 'communication.announcement.archived', aggregateType: 'announcement', aggregateId: row.id, locationId: eventLocationId(row.locationIds), object: dto });
  announcementEvent(w, 'announcement.archived', row, changedFields(before, dto));
  return dto;
}

/**
 * `POST /announcements/{id}:publish` (supplement: draft → `published` without a `publishAt` or with one
 * in the past, → `scheduled` with one in the future). The body's `publishAt` overrides the stored one.
 */
export async function publishAnnouncement(w: Work, id: string, body: z.output<typeof AnnouncementPublish>) {
  const row = await announcementFor(w, id, ['draft'], 'can be published');
  const publishAt = body.publishAt !== undefined ? toDate(body.publishAt) : row.publishAt;
  const outcome = publicationOutcome(publishAt, w.now);
  const e = deadlineError(row.acknowledgeBy, outcome === 'scheduled' ? publishAt! : w.now);
  if (e) throw new ValidationError([{ path: 'acknowledgeBy', message: e }]);
  row.publishAt = publishAt;
  if (outcome === 'scheduled') {
    row.status = 'scheduled';
    row.version += 1;
    row.updatedAt = w.now;
    await w.em.flush();
    return announcementDto(row);
  }
  return publishNow(w, row);
}

/**
 * Publishes: the audience is fixed now (recipients from the replicas; people who join later are not in
 * it), shown in their `/me/announcements`; `announcement.published` (by the unit's actor: `system` for
 * a scheduled one).
 */
async function publishNow(w: Work, row: Announcement) {
  const from = row.status;
  const employeeIds = await audienceOf(w, row.audience);
  // the ORM's multi-row insert: no entity is built or tracked per person of the audience
  if (employeeIds.length > 0) {
    await w.em.insertMany(AnnouncementRecipient, employeeIds.map((employeeId) => ({ id: newId('announcementRecipient'), announcementId: row.id, employeeId, hidden: false, acknowledgedAt: null, acknowledgedBy: null, remindedAt: null, updatedAt: w.now })));
  }
  row.status = 'published';
  row.publishedAt = w.now;
  row.publishedBy = actorOf(w.actor);
  row.audienceCount = employeeIds.length;
  row.version += 1;
  row.updatedAt = w.now;
  await w.em.flush();
  const dto = announcementDto(row);
  w.emit({ type: 'announcement.published', aggregateType: 'announcement', aggregateId: row.id, locationId: eventLocationId(row.locationIds), object: dto, previous: { status: from } });
  // the audience may read the attachments although files shows them only to whom it is told
  if (row.attachmentIds.length > 0) shareAttachments(w, { audienceType: 'announcement', audienceId: row.id, version: row.version, employeeIds, attachmentIds: row.attachmentIds, locationId: eventLocationId(row.locationIds) });
  return dto;
}

/** Announcements a worker round takes of each kind. */
export const ANNOUNCEMENTS_PER_ROUND = 100;

/** Scheduled announcements whose `publishAt` is reached (for the worker). */
export async function scheduledDue(w: Work): Promise<string[]> {
  const rows = await w.em.find(Announcement, { status: 'scheduled', publishAt: { $lte: w.now } }, { fields: ['id'], orderBy: { publishAt: 'asc' }, limit: ANNOUNCEMENTS_PER_ROUND });
  return rows.map((r) => r.id);
}

/** Supplement: scheduled → `published` when `publishAt` is reached (actor `system`). 1 when it published. */
export async function publishScheduled(w: Work, id: string): Promise<number> {
  const row = await w.em.findOne(Announcement, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!row || row.status !== 'scheduled' || !row.publishAt || row.publishAt.getTime() > w.now.getTime()) return 0;
  await publishNow(w, row);
  return 1;
}

/** Published announcements whose deadline has passed and that were not yet reminded (for the worker). */
export async function deadlinesPassed(w: Work): Promise<string[]> {
  const rows = await w.em.find(Announcement, { status: 'published', acknowledgeBy: { $lt: w.now }, remindedAt: null }, { fields: ['id'], orderBy: { acknowledgeBy: 'asc' }, limit: ANNOUNCEMENTS_PER_ROUND });
  return rows.map((r) => r.id);
}

/**
 * Past the deadline, once: a reminder to those of the audience who have not acknowledged
 * (`communication.announcement.reminded`) and the author told who is overdue
 * (`communication.announcement.overdue`); nothing is sent when everyone has acknowledged. 1 when it reminded.
 */
export async function remindOverdue(w: Work, id: string): Promise<number> {
  const row = await w.em.findOne(Announcement, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!row || row.status !== 'published' || row.remindedAt || !row.acknowledgeBy || row.acknowledgeBy.getTime() >= w.now.getTime()) return 0;
  const pending = await w.em.find(AnnouncementRecipient, { announcementId: id, acknowledgedAt: null }, { fields: ['employeeId'], orderBy: { id: 'asc' } });
  row.remindedAt = w.now;
  row.updatedAt = w.now;
  if (pending.length > 0) {
    await w.em.nativeUpdate(AnnouncementRecipient, { announcementId: id, acknowledgedAt: null }, { remindedAt: w.now, updatedAt: w.now });
    row.authorToldAt = w.now;
    const employeeIds = pending.map((r) => r.employeeId);
    const base = { announcementId: id, title: row.title, acknowledgeBy: row.acknowledgeBy.toISOString() };
    const locationId = eventLocationId(row.locationIds);
    w.emit({ type: 'communication.announcement.reminded', aggregateType: 'announcement', aggregateId: id, locationId, object: { ...base, employeeIds } });
    w.emit({
      type: 'communication.announcement.overdue',
      aggregateType: 'announcement',
      aggregateId: id,
      locationId,
      object: { ...base, author: row.createdBy, overdueEmployeeIds: employeeIds, audienceCount: row.audienceCount ?? 0, acknowledgedCount: row.acknowledgedCount },
    });
  }
  await w.em.flush();
  return pending.length > 0 ? 1 : 0;
}

/** `GET /announcements/{id}/acknowledgements`: the audience fixed at publication, who has acknowledged and when, who was reminded. */
export async function listAcknowledgements(w: Work, id: string, query: z.output<typeof AnnouncementAcknowledgementsQuery>) {
  const row = await announcementInReach(w, id);
  const { limit, cursor, updatedSince, acknowledged } = query;
  const page = await findPage(w.em, AnnouncementRecipient, [{ announcementId: id }, acknowledged === 'true' && { acknowledgedAt: { $ne: null } }, acknowledged === 'false' && { acknowledgedAt: null }], { limit, cursor, updatedSince });
  const ids = page.data.map((r) => r.employeeId);
  const names = new Map((ids.length > 0 ? await w.em.find(CommunicationEmployee, { id: { $in: ids } }, { fields: ['id', 'firstName', 'lastName'] }) : []).map((e) => [e.id, { firstName: e.firstName, lastName: e.lastName }]));
  const remindedCount = await w.em.count(AnnouncementRecipient, { announcementId: id, remindedAt: { $ne: null } });
  const audienceCount = row.audienceCount ?? 0;
  return {
    announcementId: id,
    acknowledgementRequired: row.acknowledgementRequired,
    acknowledgeBy: row.acknowledgeBy ? row.acknowledgeBy.toISOString() : null,
    audienceCount,
    acknowledgedCount: row.acknowledgedCount,
    notAcknowledgedCount: audienceCount - row.acknowledgedCount,
    remindedCount,
    authorToldAt: row.authorToldAt ? row.authorToldAt.toISOString() : null,
    ...mapPage(page, (r) => recipientDto(r, names.get(r.employeeId), isOverdue(row.acknowledgeBy, r.acknowledgedAt, w.now))),
  };
}

