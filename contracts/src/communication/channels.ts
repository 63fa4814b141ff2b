import { z } from '../zod';
import { Actor, IdParam, ListQuery, Timestamp, listEnvelope } from '../common';

const ref = z.string().min(1).max(64);

/** Maximum length of a message's text (characters, after trimming). */
export const MESSAGE_TEXT_MAX = 4000;

/**
 * A channel's kind: `location_team` (everyone who works at a location), `department` (everyone of a
 * department, optionally only at one location), `group` (the members named at creation).
 */
export const ChannelKind = z.enum(['location_team', 'department', 'group']);

export const ChannelCreate = z
  .strictObject({
    kind: ChannelKind,
    name: z.string().trim().min(1).max(100).openapi({ example: 'Downtown kitchen' }),
    locationId: ref.optional().openapi({ description: '`location_team`: required, its people are the members; `department`: only its people at this location; `group`: where the channel belongs (reach); none: company-wide' }),
    departmentId: ref.optional().openapi({ description: '`department` only (required there)' }),
    memberIds: z.array(ref).min(1).max(500).optional().openapi({ description: '`group` only (required there): active employees' }),
  })
  .superRefine((b, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (b.kind === 'location_team' && !b.locationId) issue('locationId', 'A location team channel names its location.');
    if (b.kind === 'department' && !b.departmentId) issue('departmentId', 'A department channel names its department.');
    if (b.kind !== 'department' && b.departmentId) issue('departmentId', 'Only a department channel names a department.');
    if (b.kind === 'group' && !b.memberIds) issue('memberIds', 'A group channel names its members.');
    if (b.kind !== 'group' && b.memberIds) issue('memberIds', 'Location team and department channels take their members from people; leave memberIds out.');
  })
  .openapi('ChannelCreate');

export const Channel = z
  .object({
    id: z.string().openapi({ example: 'chn_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    kind: ChannelKind,
    name: z.string(),
    locationId: z.string().nullable(),
    departmentId: z.string().nullable(),
    memberCount: z.number().int(),
    isMember: z.boolean().openapi({ description: 'whether the caller (their employee record) is a member' }),
    lastMessageAt: Timestamp.nullable(),
    createdBy: Actor,
    createdAt: Timestamp,
  })
  .openapi('Channel');

export const ChannelListQuery = ListQuery.extend({
  kind: ChannelKind.optional(),
  locationId: ref.optional(),
});

export const MessageCreate = z
  .strictObject({
    text: z.string().trim().min(1).max(MESSAGE_TEXT_MAX).openapi({ example: 'Walk-in cooler is fixed, stock can go back in.' }),
    attachmentIds: z.array(ref).max(10).optional().openapi({ description: 'files uploaded with POST /attachments; the channel\'s members may then read them' }),
  })
  .openapi('MessageCreate');

export const Message = z
  .object({
    id: z.string().openapi({ example: 'msg_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    channelId: z.string(),
    text: z.string(),
    attachmentIds: z.array(z.string()),
    author: Actor,
    authorName: z.string().nullable().openapi({ description: 'the author\'s name when the author is an employee' }),
    createdAt: Timestamp,
  })
  .openapi('Message');

/**
 * Who may read a set of attachments (internal event `communication.attachments.audience`, consumed by
 * files): the employees of an announcement's audience or a channel's members, as of `version`.
 * `employeeIds` replaces the set (an older version never overwrites a newer one); `attachmentIds` are
 * added to the files the audience may read.
 */
export const AttachmentAudienceChanged = z.object({
  audienceId: z.string(),
  version: z.number().int(),
  employeeIds: z.array(z.string()).nullable().openapi({ description: 'the whole audience as of `version`; null: unchanged' }),
  attachmentIds: z.array(z.string()).openapi({ description: 'added to what the audience may read' }),
});

export const channelOperations = {
  'GET /channels': { query: ChannelListQuery, response: listEnvelope(Channel) },
  'POST /channels': { body: ChannelCreate, response: Channel, status: 201 },
  'GET /channels/{id}/messages': { params: IdParam, query: ListQuery, response: listEnvelope(Message) },
  'POST /channels/{id}/messages': { params: IdParam, body: MessageCreate, response: Message, status: 201 },
};
