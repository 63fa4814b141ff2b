import type { Channel, Message } from './entities';

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/** A channel on the wire; `isMember`: the caller's employee record is one of its members. */
export function channelDto(c: Channel, isMember: boolean) {
  return {
    id: c.id,
    kind: c.kind,
    name: c.name,
    locationId: c.locationId ?? null,
    departmentId: c.departmentId ?? null,
    memberCount: c.memberCount,
    isMember,
    lastMessageAt: iso(c.lastMessageAt),
    createdBy: c.createdBy,
    createdAt: iso(c.createdAt)!,
  };
}

/** A message on the wire. */
export function messageDto(m: Message) {
  return {
    id: m.id,
    channelId: m.channelId,
    text: m.text,
    attachmentIds: m.attachmentIds,
    author: m.author,
    authorName: m.authorName ?? null,
    createdAt: iso(m.createdAt)!,
  };
}
