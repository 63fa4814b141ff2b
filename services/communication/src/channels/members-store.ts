import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { atEmployeeLocations, newId, type Work } from '@bop/shared';
import { CommunicationEmployee } from '../employees/entities';
import { Channel, ChannelMember } from './entities';
import { shareAttachments } from '../attachment-audiences/store';

/** What membership needs of an employee (from people's event, or the replica when it holds a newer state). */
export interface MemberFacts {
  id: string;
  status: string;
  homeLocationId: string;
  locationIds: string[];
  departmentId: string | null;
  version: number;
}

/** The active employees a location team or department channel takes, from the employee replica now. */
export async function derivedMembers(w: Work, c: Pick<Channel, 'kind' | 'locationId' | 'departmentId'>): Promise<string[]> {
  const where: FilterQuery<CommunicationEmployee>[] = [{ status: 'active' }];
  if (c.locationId) where.push(atEmployeeLocations(c.locationId) as FilterQuery<CommunicationEmployee>);
  if (c.kind === 'department') where.push({ departmentId: c.departmentId! });
  const rows = await w.em.find(CommunicationEmployee, { $and: where }, { fields: ['id'], orderBy: { id: 'asc' } });
  return rows.map((e) => e.id);
}

/** Whether an employee belongs in a location team or department channel (a group channel's members are named). */
function belongs(c: Channel, e: MemberFacts): boolean {
  if (e.status !== 'active' || c.kind === 'group') return false;
  const at = !c.locationId || e.homeLocationId === c.locationId || e.locationIds.includes(c.locationId);
  return c.kind === 'location_team' ? at : e.departmentId === c.departmentId && at;
}

/**
 * An employee's memberships after one of people's events: the event's state, or the employee replica's
 * when it already holds a newer one (events of one employee may be applied late).
 */
export async function syncEmployeeMemberships(w: Work, fromEvent: MemberFacts): Promise<void> {
  const replica = await w.em.findOne(CommunicationEmployee, { id: fromEvent.id });
  const facts = replica && replica.version > fromEvent.version
    ? { id: replica.id, status: replica.status, homeLocationId: replica.homeLocationId, locationIds: replica.locationIds, departmentId: replica.departmentId ?? null, version: replica.version }
    : fromEvent;
  await syncMemberships(w, facts);
}

/**
 * Keeps an employee's channel memberships in step with their state (people's hire, change, transfer,
 * termination): in every location team channel of a location they work at and every department
 * channel of their department (there), out of those they no longer match; out of every channel,
 * group channels too, once not active. Each channel changed is locked, counted, and files told its
 * members when it has attachments.
 */
export async function syncMemberships(w: Work, e: MemberFacts): Promise<void> {
  const active = e.status === 'active';
  const derived: FilterQuery<Channel>[] = [];
  if (active) {
    derived.push({ kind: 'location_team', locationId: { $in: [e.homeLocationId, ...e.locationIds] } });
    if (e.departmentId) derived.push({ kind: 'department', departmentId: e.departmentId });
  }
  const current = await w.em.find(ChannelMember, { employeeId: e.id }, { fields: ['channelId'] });
  const currentIds = new Set(current.map((m) => m.channelId));
  const candidates = derived.length > 0 || currentIds.size > 0
    ? await w.em.find(Channel, { $or: [...derived, ...(currentIds.size > 0 ? [{ id: { $in: [...currentIds] } }] : [])] }, { orderBy: { id: 'asc' } })
    : [];
  for (const c of candidates) {
    const should = belongs(c, e) || (c.kind === 'group' && active && currentIds.has(c.id));
    const is = currentIds.has(c.id);
    if (should === is) continue;
    await changeMembers(w, c.id, should ? [e.id] : [], should ? [] : [e.id]);
  }
}

/** Adds and removes members of a channel (locked), counting them and moving its members' version. */
export async function changeMembers(w: Work, channelId: string, add: string[], remove: string[]): Promise<void> {
  const c = await w.em.findOneOrFail(Channel, { id: channelId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  const removed = remove.length > 0 ? await w.em.nativeDelete(ChannelMember, { channelId, employeeId: { $in: remove } }) : 0;
  let added = 0;
  if (add.length > 0) {
    const have = new Set((await w.em.find(ChannelMember, { channelId, employeeId: { $in: add } }, { fields: ['employeeId'] })).map((m) => m.employeeId));
    const fresh = add.filter((id) => !have.has(id));
    if (fresh.length > 0) await w.em.insertMany(ChannelMember, fresh.map((employeeId) => ({ id: newId('channelMember'), channelId, employeeId, joinedAt: w.now })));
    added = fresh.length;
  }
  if (removed === 0 && added === 0) return;
  c.memberCount += added - removed;
  c.membersVersion += 1;
  await w.em.flush();
  if (c.hasAttachments) shareAttachments(w, { audienceType: 'channel', audienceId: c.id, version: c.membersVersion, employeeIds: await memberIds(w, c.id), attachmentIds: [], locationId: c.locationId ?? null });
}

/** A channel's members (employee ids). */
export async function memberIds(w: Work, channelId: string): Promise<string[]> {
  return (await w.em.find(ChannelMember, { channelId }, { fields: ['employeeId'], orderBy: { employeeId: 'asc' } })).map((m) => m.employeeId);
}
