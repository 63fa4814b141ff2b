import { LockMode } from '@mikro-orm/core';
import {
  actorOf,
  assertEmployeeRecordInReach,
  employeeScopeCondition,
  reachCoversEmployeeRecord,
  type EmployeeRecordScope,
  Conflict,
  findPage,
  findPlain,
  lockForTransaction,
  newId,
  NotFound,
  resolveEmployees,
  ValidationError,
  type EntityManager,
  type PageRequest,
  type ReachSet,
  type Work,
} from '@bop/shared';
import { ShiftSwap } from './entities';
import { swapDto, type SwapView } from './dto';
import { Shift } from '../shifts/entities';
import { shiftDto } from '../shifts/dto';
import { employeeKey, zonesOf } from '../shifts/store';

async function viewsOf(em: EntityManager, rows: ShiftSwap[]): Promise<SwapView[]> {
  const shifts = new Map((await findPlain(em, Shift, { id: { $in: [...new Set(rows.map((r) => r.shiftId))] } })).map((s) => [s.id, s]));
  return rows.map((r) => swapDto(r, shifts.get(r.shiftId)!));
}

function record(w: Work, type: string, view: SwapView) {
  w.emit({ type, aggregateType: 'shift_swap', aggregateId: view.id, locationId: view.locationId, object: view });
}

/**
 * A swap concerns both its employees. A reach covers it by its location; short of that, by its
 * employees in the reach's employee sets: either of them to read it, both to request or decide it
 * (the shift moves from one to the other).
 */
function assertSwapInReach(reach: ReachSet, locationId: string, employeeIds: Array<string | null | undefined>, need: 'either' | 'both'): void {
  const covers = (employeeId: string | null | undefined) => reachCoversEmployeeRecord(reach, { locationIds: [locationId], employeeId });
  if (need === 'either' ? employeeIds.some(covers) : employeeIds.every(covers)) return;
  assertEmployeeRecordInReach(reach, locationId, employeeIds.find((e) => !covers(e)) ?? null);
}

const started = (s: Pick<Shift, 'start'>, now: Date) => new Date(s.start).getTime() <= now.getTime();

/**
 * `POST /shift-swaps` (a manager, for a shift in reach) and `POST /me/shift-swaps` (`own`: the
 * employee working it). Supplement: the shift is published and not started → `pending`,
 * `shift.swap_requested`. One pending swap per shift.
 */
export async function requestSwap(w: Work, body: { shiftId: string; toEmployeeId: string; note?: string | null }, own?: string) {
  const { em } = w;
  const to = (await resolveEmployees(w, [{ employeeId: body.toEmployeeId }], { payRates: false })).byId.get(body.toEmployeeId);
  if (!to) throw new ValidationError([{ path: 'toEmployeeId', message: `No employee ${body.toEmployeeId}.` }]);
  const s = await em.findOne(Shift, { id: body.shiftId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  // an employee offers only a shift of theirs: another's is not found for them
  if (!s || (own !== undefined && s.employeeId !== own)) throw new ValidationError([{ path: 'shiftId', message: `No shift ${body.shiftId}${own ? ' of yours' : ''}.` }]);
  if (own === undefined) assertSwapInReach(w.reach(), s.locationId, [s.employeeId, body.toEmployeeId], 'both');
  if (s.status !== 'published') throw new Conflict(`Shift ${s.id} is ${s.status}; only a published shift is swapped.`);
  if (s.employeeId === null) throw new Conflict(`Shift ${s.id} is open; an employee claims it instead (POST /shifts/{id}:claim).`);
  if (started(s, w.now)) throw new Conflict(`Shift ${s.id} has started; it is no longer swapped.`);
  if (body.toEmployeeId === s.employeeId) throw new ValidationError([{ path: 'toEmployeeId', message: 'The shift is already theirs; name a co-worker.' }]);
  const pending = await em.findOne(ShiftSwap, { shiftId: s.id, status: 'pending' });
  if (pending) throw new Conflict(`Shift ${s.id} already has a pending swap (${pending.id}).`);
  const at = w.now;
  const swap = em.create(ShiftSwap, {
    id: newId('shiftSwap'),
    shiftId: s.id,
    locationId: s.locationId,
    fromEmployeeId: s.employeeId!,
    toEmployeeId: body.toEmployeeId,
    note: body.note ?? null,
    status: 'pending',
    requestedBy: actorOf(w.actor),
    decidedAt: null,
    decidedBy: null,
    rejectionReason: null,
    version: 1,
    createdAt: at,
    updatedAt: at,
  });
  await em.flush();
  const view = swapDto(swap, s);
  record(w, 'shift.swap_requested', view);
  return view;
}

async function pendingSwap(w: Work, id: string): Promise<ShiftSwap> {
  const swap = await w.em.findOne(ShiftSwap, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!swap) throw new NotFound('shift swap', id);
  assertSwapInReach(w.reach(), swap.locationId, [swap.fromEmployeeId, swap.toEmployeeId], 'both');
  if (swap.status !== 'pending') throw new Conflict(`Shift swap ${id} is ${swap.status}; only a pending swap is decided.`);
  return swap;
}

function decide(w: Work, swap: ShiftSwap, status: 'approved' | 'rejected') {
  const at = w.now;
  swap.status = status;
  swap.decidedAt = at;
  swap.decidedBy = actorOf(w.actor);
  swap.version += 1;
  swap.updatedAt = at;
}

/**
 * `:approve` (supplement: `pending` → `approved`; the shift not started, the new employee not
 * double-booked): the shift is reassigned; `shift.swap_approved` and `shift.changed`. A shift that
 * has started expires the swap instead (409).
 */
export async function approveSwap(w: Work, id: string) {
  const { em } = w;
  const probe = await em.findOne(ShiftSwap, { id });
  if (probe) await lockForTransaction(em, employeeKey(w, probe.toEmployeeId));
  const swap = await pendingSwap(w, id);
  const s = await em.findOneOrFail(Shift, { id: swap.shiftId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (started(s, w.now)) {
    await expire(w, [swap]);
    throw new Conflict(`Shift ${s.id} has started; swap ${id} has expired.`);
  }
  if (s.status !== 'published' || s.employeeId !== swap.fromEmployeeId) throw new Conflict(`Shift ${s.id} is no longer a published shift of employee ${swap.fromEmployeeId}; reject the swap.`);
  const zone = (await zonesOf(w, [s.locationId])).get(s.locationId) ?? 'UTC';
  const clash = await em.findOne(Shift, { employeeId: swap.toEmployeeId, status: 'published', start: { $lt: s.end }, end: { $gt: s.start } });
  if (clash) {
    const v = shiftDto(clash, zone);
    throw new Conflict(`Employee ${swap.toEmployeeId} already works shift ${clash.id} (${v.localStart} to ${v.localEnd}) then; the swap would double-book them.`);
  }
  decide(w, swap, 'approved');
  s.employeeId = swap.toEmployeeId;
  s.version += 1;
  s.updatedAt = w.now;
  await em.flush();
  const view = swapDto(swap, s);
  record(w, 'shift.swap_approved', view);
  w.emit({ type: 'shift.changed', aggregateType: 'shift', aggregateId: s.id, locationId: s.locationId, object: shiftDto(s, zone), previous: { employeeId: swap.fromEmployeeId } });
  return view;
}

/** `:reject` with a reason (supplement: `pending` → `rejected`, final). */
export async function rejectSwap(w: Work, id: string, reason: string) {
  const swap = await pendingSwap(w, id);
  decide(w, swap, 'rejected');
  swap.rejectionReason = reason;
  await w.em.flush();
  const view = (await viewsOf(w.em, [swap]))[0];
  // the project's own public type, next to the seed's shift.swap_requested and shift.swap_approved
  record(w, 'shift.swap_rejected', view);
  return view;
}

async function expire(w: Work, swaps: ShiftSwap[]) {
  const at = w.now;
  for (const swap of swaps) {
    swap.status = 'expired';
    swap.version += 1;
    swap.updatedAt = at;
  }
  await w.em.flush();
}

/** Supplement: a pending swap expires when its shift starts (the expiry worker's pass). Answers how many expired. */
export async function expireStartedSwaps(w: Work, take = 200): Promise<number> {
  const { em } = w;
  const pending = await em.find(ShiftSwap, { status: 'pending' }, { orderBy: { createdAt: 'asc' }, limit: take, lockMode: LockMode.PESSIMISTIC_WRITE });
  if (pending.length === 0) return 0;
  const shifts = new Map((await findPlain(em, Shift, { id: { $in: pending.map((swap) => swap.shiftId) } })).map((s) => [s.id, s]));
  const due = pending.filter((swap) => started(shifts.get(swap.shiftId)!, w.now));
  if (due.length > 0) await expire(w, due);
  return due.length;
}

export async function getSwap(w: Work, id: string) {
  const swap = await w.em.findOne(ShiftSwap, { id });
  if (!swap) throw new NotFound('shift swap', id);
  assertSwapInReach(w.reach(), swap.locationId, [swap.fromEmployeeId, swap.toEmployeeId], 'either');
  return (await viewsOf(w.em, [swap]))[0];
}

export async function listSwaps(w: Work, f: { status?: string; scope?: EmployeeRecordScope; employeeId?: string }, page: PageRequest & { updatedSince?: string }) {
  const rows = await findPage(
    w.em,
    ShiftSwap,
    [f.status && { status: f.status as never }, employeeScopeCondition<ShiftSwap>(f.scope, { location: (ids) => ({ locationId: ids }), employee: (ids) => ({ $or: [{ fromEmployeeId: ids }, { toEmployeeId: ids }] }) }), f.employeeId && { $or: [{ fromEmployeeId: f.employeeId }, { toEmployeeId: f.employeeId }] }],
    page,
  );
  return { ...rows, data: await viewsOf(w.em, rows.data) };
}
