import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

type Actor = { type: 'user' | 'integration' | 'system' | 'employee'; id: string | null };
export type ChannelKind = 'location_team' | 'department' | 'group';

/** A channel: a location's team, a department (at a location or everywhere), or a group of named members. */
export const Channel = defineEntity({
  name: 'Channel',
  tableName: 'channels',
  properties: {
    id: p.string().primary(),
    kind: p.string().$type<ChannelKind>(),
    name: p.string(),
    /** location team: its location; department: only its people there (or null); group: where it belongs (null: company-wide) */
    locationId: p.string().nullable(),
    departmentId: p.string().nullable(),
    memberCount: p.integer(),
    /** moves on every change of the members (files' copy of who may read the channel's attachments) */
    membersVersion: p.integer(),
    /** some message carries attachments: files is kept told who the members are */
    hasAttachments: p.boolean(),
    lastMessageAt: p.datetime().nullable(),
    createdBy: p.json<Actor>(),
    createdAt: p.datetime(),
  },
});
export type Channel = InferEntity<typeof Channel>;

/** An employee in a channel. */
export const ChannelMember = defineEntity({
  name: 'ChannelMember',
  tableName: 'channel_members',
  properties: {
    id: p.string().primary(),
    channelId: p.string(),
    employeeId: p.string(),
    joinedAt: p.datetime(),
  },
});
export type ChannelMember = InferEntity<typeof ChannelMember>;

/** A message posted in a channel. */
export const Message = defineEntity({
  name: 'Message',
  tableName: 'messages',
  properties: {
    id: p.string().primary(),
    channelId: p.string(),
    text: p.string(),
    attachmentIds: p.array().$type<string[]>(),
    author: p.json<Actor>(),
    authorEmployeeId: p.string().nullable(),
    authorName: p.string().nullable(),
    createdAt: p.datetime(),
  },
});
export type Message = InferEntity<typeof Message>;
