import { LockMode, UniqueConstraintViolationException, type FilterQuery } from '@mikro-orm/core';
import type { z } from 'zod';
import type { ChannelCreate, ChannelListQuery, DepartmentsResolveAnswer, MessageCreate } from '@bop/contracts';
import {
  Conflict,
  NotFound,
  OutOfReach,
  ValidationError,
  actorOf,
  assertCompanyWide,
  assertLocationInReach,
  callCommand,
  decodeCursor,
  findPage,
  locationsInOrgUnitsOf,
  mapPage,
  newId,
  pageLimit,
  reachCoversEmployeeRecord,
  reachFor,
  reachableLocationIds,
  resolveEmployees,
  toPage,
  writableLocations,
  type FieldError,
  type PageRequest,
  type ReachSet,
  type Work,
} from '@bop/shared';
import { CommunicationEmployee } from '../employees/entities';
import { attachmentErrors, shareAttachments } from '../attachment-audiences/store';
import { Channel, ChannelMember, Message } from './entities';
import { channelDto, messageDto } from './dto';
import { derivedMembers, memberIds } from './members-store';

/**
 * `POST /channels` (`messages.manage`): a location team channel (the people who work at its location),
 * a department channel (the department's people, at its location when it names one) or a group channel
 * (the active employees named). Its location must be active and within reach; a channel of no location
 * is company-wide (reach Everyone). One location team channel per location, one department channel per
 * department and location (409 `conflict`).
 */
export async function createChannel(w: Work, body: z.output<typeof ChannelCreate>) {
  const reach = w.reach();
  const errors: FieldError[] = [];
  let locationId = body.locationId ?? null;
  if (body.kind === 'department') {
    // the department as organization says now; one of a location makes the channel that location's
    const dep = await departmentOf(w, body.departmentId!);
    if (dep === 'unknown') errors.push({ path: 'departmentId', message: `No department ${body.departmentId}.` });
    else if (dep && dep.status !== 'active') errors.push({ path: 'departmentId', message: `Department ${dep.id} is ${dep.status}; it takes no new channels.` });
    else if (dep?.locationId) {
      if (locationId && locationId !== dep.locationId) errors.push({ path: 'locationId', message: `Department ${dep.id} belongs to location ${dep.locationId}, not ${locationId}.` });
      locationId = dep.locationId;
    }
    if (errors.length > 0) throw new ValidationError(errors);
  }
  if (locationId) assertLocationInReach(reach, locationId);
  else assertCompanyWide(reach, 'Channels of no location');
  if (locationId) errors.push(...(await writableLocations(w, [{ id: locationId, path: 'locationId', takes: 'channels' }])).errors);

  let members: string[] = [];
  if (body.kind === 'group') {
    members = [...new Set(body.memberIds!)];
    const found = (await resolveEmployees(w, members.map((employeeId) => ({ employeeId })), { doubt: (e) => e.status !== 'active', payRates: false })).byId;
    body.memberIds!.forEach((id, i) => {
      const e = found.get(id);
      if (!e) errors.push({ path: `memberIds[${i}]`, message: `No employee ${id}.` });
      else if (e.status !== 'active') errors.push({ path: `memberIds[${i}]`, message: `Employee ${id} is ${e.status}; channels are for active employees.` });
    });
    if (errors.length > 0) throw new ValidationError(errors);
    for (const id of members) {
      const e = found.get(id)!;
      if (!reachCoversEmployeeRecord(reach, { locationIds: [e.homeLocationId, ...e.locationIds], employeeId: id })) throw new OutOfReach(`Your permission messages.manage does not reach employee ${id}.`);
    }
  }
  if (errors.length > 0) throw new ValidationError(errors);

  const same = body.kind === 'location_team' ? { kind: 'location_team' as const, locationId } : body.kind === 'department' ? { kind: 'department' as const, departmentId: body.departmentId!, locationId } : null;
  if (same && (await w.em.count(Channel, same)) > 0) throw new Conflict(sameMessage(body.kind, locationId, body.departmentId));
  const row = w.em.create(Channel, {
    id: newId('channel'),
    kind: body.kind,
    name: body.name,
    locationId,
    departmentId: body.departmentId ?? null,
    memberCount: 0,
    membersVersion: 1,
    hasAttachments: false,
    lastMessageAt: null,
    createdBy: actorOf(w.actor),
    createdAt: w.now,
  });
  if (body.kind !== 'group') members = await derivedMembers(w, row);
  row.memberCount = members.length;
  try {
    await w.em.flush();
  } catch (err) {
    // another request created the same channel a moment before
    if (err instanceof UniqueConstraintViolationException) throw new Conflict(sameMessage(body.kind, locationId, body.departmentId));
    throw err;
  }
  if (members.length > 0) await w.em.insertMany(ChannelMember, members.map((employeeId) => ({ id: newId('channelMember'), channelId: row.id, employeeId, joinedAt: w.now })));
  // the project's own public type (issue 41 item 3): the channel as the API returns it, `isMember` as for its creator
  const dto = channelDto(row, w.actor.employeeId ? members.includes(w.actor.employeeId) : false);
  w.emit({ type: 'channel.created', aggregateType: 'channel', aggregateId: row.id, locationId, object: dto });
  return dto;
}

/** A department as organization's `POST /internal/departments:resolve` answers it; null when organization cannot be asked from this process (a service run alone: accepted as sent). */
async function departmentOf(w: Work, id: string): Promise<DepartmentsResolveAnswer['data'][number] | 'unknown' | null> {
  if (!w.services.has('organization')) return null;
  const answer = await callCommand<DepartmentsResolveAnswer>(w.services, 'organization', 'POST', '/internal/departments:resolve', { ids: [id] }, { what: 'check the department', ok: [200], requestId: w.requestId });
  return answer.data.find((d) => d.id === id) ?? 'unknown';
}

const sameMessage = (kind: string, locationId: string | null, departmentId: string | undefined) =>
  kind === 'location_team' ? `Location ${locationId} already has a location team channel.` : `Department ${departmentId}${locationId ? ` at location ${locationId}` : ''} already has a channel.`;

/** The reach of `messages.manage` for a person (org units resolved to their locations), null without it; Everyone for integration keys. */
async function manageReach(w: Work): Promise<ReachSet | null> {
  const reach = reachFor(w.actor, 'messages.manage');
  if (!reach || reach.everyone || reach.orgUnitIds.size === 0) return reach;
  const ids = await locationsInOrgUnitsOf(w.schema)(w, [...reach.orgUnitIds]);
  return { ...reach, locationIds: new Set([...reach.locationIds, ...ids]), orgUnitsResolved: true };
}

/** The channels the caller's employee record is a member of. */
async function myChannelIds(w: Work): Promise<Set<string>> {
  if (!w.actor.employeeId) return new Set();
  return new Set((await w.em.find(ChannelMember, { employeeId: w.actor.employeeId }, { fields: ['channelId'] })).map((m) => m.channelId));
}

/**
 * `GET /channels`: the channels the caller belongs to; for integration keys every channel, and for
 * `messages.manage` also every channel its reach covers (by location; those of no location with
 * reach Everyone). Oldest first, filtered by `kind` and `locationId`.
 */
export async function listChannels(w: Work, query: z.output<typeof ChannelListQuery>) {
  const { limit, cursor, kind, locationId } = query;
  const mine = await myChannelIds(w);
  const reach = await manageReach(w);
  const reachable = reach ? reachableLocationIds(reach) : [];
  const visible: FilterQuery<Channel> | null = reachable === null ? null : { $or: [{ id: { $in: [...mine] } }, ...(reachable.length > 0 ? [{ locationId: { $in: reachable } }] : [])] };
  const page = await findPage(w.em, Channel, [kind && { kind }, locationId && { locationId }, visible], { limit, cursor });
  return mapPage(page, (c) => channelDto(c, mine.has(c.id)));
}

/** A channel whose messages the caller may read and post: a member, or an integration key; anyone else is told it does not exist. */
async function channelOfMember(w: Work, id: string, lock = false): Promise<Channel> {
  const c = await w.em.findOne(Channel, { id }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!c) throw new NotFound('channel', id);
  if (w.actor.kind === 'integration' || w.actor.kind === 'system') return c;
  const member = w.actor.employeeId ? await w.em.count(ChannelMember, { channelId: id, employeeId: w.actor.employeeId }) : 0;
  if (member === 0) throw new NotFound('channel', id);
  return c;
}

/** `GET /channels/{id}/messages`: newest first, in cursor pages; members only (others get 404). */
export async function listMessages(w: Work, id: string, page: PageRequest) {
  await channelOfMember(w, id);
  const before = decodeCursor(page.cursor);
  const n = pageLimit(page.limit);
  const rows = await w.em.find(Message, { channelId: id, ...(before ? { id: { $lt: before } } : {}) }, { orderBy: { id: 'desc' }, limit: n + 1 });
  return toPage(rows, n, messageDto);
}

/**
 * `POST /channels/{id}/messages`: a message by a member (or an integration key) with attachments the
 * caller may see (checked with files). The channel's members may then read those attachments: files
 * is told (internal event) the attachments and, the first time the channel has any, its members.
 */
export async function postMessage(w: Work, id: string, body: z.output<typeof MessageCreate>) {
  const attachmentIds = [...new Set(body.attachmentIds ?? [])];
  const channel = await channelOfMember(w, id, attachmentIds.length > 0);
  const errors = await attachmentErrors(w, attachmentIds);
  if (errors.length > 0) throw new ValidationError(errors);
  const authorEmployeeId = w.actor.kind === 'user' ? (w.actor.employeeId ?? null) : null;
  const author = authorEmployeeId ? await w.em.findOne(CommunicationEmployee, { id: authorEmployeeId }, { fields: ['firstName', 'lastName'] }) : null;
  const row = w.em.create(Message, {
    id: newId('message'),
    channelId: id,
    text: body.text,
    attachmentIds,
    author: actorOf(w.actor),
    authorEmployeeId,
    authorName: author ? `${author.firstName} ${author.lastName}`.trim() : null,
    createdAt: w.now,
  });
  channel.lastMessageAt = w.now;
  let employeeIds: string[] | null = null;
  if (attachmentIds.length > 0 && !channel.hasAttachments) {
    channel.hasAttachments = true;
    employeeIds = await memberIds(w, id);
  }
  await w.em.flush();
  if (attachmentIds.length > 0) shareAttachments(w, { audienceType: 'channel', audienceId: id, version: channel.membersVersion, employeeIds, attachmentIds, locationId: channel.locationId ?? null });
  // the project's own public type (issue 41 item 3): the message as the API returns it, at the channel's location (null: company-wide)
  const dto = messageDto(row);
  w.emit({ type: 'message.posted', aggregateType: 'channel', aggregateId: id, locationId: channel.locationId ?? null, object: dto });
  return dto;
}
