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
  now as clockNow,
  recordEvent,
  resolveEmployees,
  ValidationError,
  type EntityManager,
  type PageRequest,
  type Principal,
  type ReachSet,
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

function record(em: EntityManager, type: string, view: SwapView, actor: Principal) {
  recordEvent(em, { type, aggregateType: 'shift_swap', aggregateId: view.id, locationId: view.locationId, object: view, actor });
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

const started = (s: Pick<Shift, 'start'>) => new Date(s.start).getTime() <= clockNow().getTime();

/**
 * `POST /shift-swaps` (a manager, for a shift in reach) and `POST /me/shift-swaps` (`own`: the
 * employee working it). Supplement: the shift is published and not started → `pending`,
 * `shift.swap_requested`. One pending swap per shift.
 */
export async function requestSwap(em: EntityManager, body: { shiftId: string; toEmployeeId: string; note?: string | null }, caller: { principal: Principal; reach: ReachSet | null; own?: string }) {
  const to = (await resolveEmployees(em, 'scheduling', [{ employeeId: body.toEmployeeId }], { payRates: false })).byId.get(body.toEmployeeId);
  if (!to) throw new ValidationError([{ path: 'toEmployeeId', message: `No employee ${body.toEmployeeId}.` }]);
  return em.transactional(async (tem) => {
    const s = await tem.findOne(Shift, { id: body.shiftId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    // an employee offers only a shift of theirs: another's is not found for them
    if (!s || (caller.own !== undefined && s.employeeId !== caller.own)) throw new ValidationError([{ path: 'shiftId', message: `No shift ${body.shiftId}${caller.own ? ' of yours' : ''}.` }]);
    if (caller.reach) assertSwapInReach(caller.reach, s.locationId, [s.employeeId, body.toEmployeeId], 'both');
    if (s.status !== 'published') throw new Conflict(`Shift ${s.id} is ${s.status}; only a published shift is swapped.`);
    if (s.employeeId === null) throw new Conflict(`Shift ${s.id} is open; an employee claims it instead (POST /shifts/{id}:claim).`);
    if (started(s)) throw new Conflict(`Shift ${s.id} has started; it is no longer swapped.`);
    if (body.toEmployeeId === s.employeeId) throw new ValidationError([{ path: 'toEmployeeId', message: 'The shift is already theirs; name a co-worker.' }]);
    const pending = await tem.findOne(ShiftSwap, { shiftId: s.id, status: 'pending' });
    if (pending) throw new Conflict(`Shift ${s.id} already has a pending swap (${pending.id}).`);
    const at = clockNow();
    const w = tem.create(ShiftSwap, {
      id: newId('shiftSwap'),
      shiftId: s.id,
      locationId: s.locationId,
      fromEmployeeId: s.employeeId!,
      toEmployeeId: body.toEmployeeId,
      note: body.note ?? null,
      status: 'pending',
      requestedBy: actorOf(caller.principal),
      decidedAt: null,
      decidedBy: null,
      rejectionReason: null,
      version: 1,
      createdAt: at,
      updatedAt: at,
    });
    await tem.flush();
    const view = swapDto(w, s);
    record(tem, 'shift.swap_requested', view, caller.principal);
    return view;
  });
}

async function pendingSwap(em: EntityManager, id: string, reach: ReachSet): Promise<ShiftSwap> {
  const w = await em.findOne(ShiftSwap, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!w) throw new NotFound('shift swap', id);
  assertSwapInReach(reach, w.locationId, [w.fromEmployeeId, w.toEmployeeId], 'both');
  if (w.status !== 'pending') throw new Conflict(`Shift swap ${id} is ${w.status}; only a pending swap is decided.`);
  return w;
}

function decide(w: ShiftSwap, status: 'approved' | 'rejected', principal: Principal) {
  const at = clockNow();
  w.status = status;
  w.decidedAt = at;
  w.decidedBy = actorOf(principal);
  w.version += 1;
  w.updatedAt = at;
}

/**
 * `:approve` (supplement: `pending` → `approved`; the shift not started, the new employee not
 * double-booked): the shift is reassigned; `shift.swap_approved` and `shift.changed`. A shift that
 * has started expires the swap instead (409).
 */
export async function approveSwap(em: EntityManager, id: string, caller: { principal: Principal; reach: ReachSet }) {
  return em.transactional(async (tem) => {
    const probe = await tem.findOne(ShiftSwap, { id });
    if (probe) await lockForTransaction(tem, employeeKey(probe.toEmployeeId));
    const w = await pendingSwap(tem, id, caller.reach);
    const s = await tem.findOneOrFail(Shift, { id: w.shiftId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (started(s)) {
      await expire(tem, [w]);
      throw new Conflict(`Shift ${s.id} has started; swap ${id} has expired.`);
    }
    if (s.status !== 'published' || s.employeeId !== w.fromEmployeeId) throw new Conflict(`Shift ${s.id} is no longer a published shift of employee ${w.fromEmployeeId}; reject the swap.`);
    const zone = (await zonesOf(tem, [s.locationId])).get(s.locationId) ?? 'UTC';
    const clash = await tem.findOne(Shift, { employeeId: w.toEmployeeId, status: 'published', start: { $lt: s.end }, end: { $gt: s.start } });
    if (clash) {
      const v = shiftDto(clash, zone);
      throw new Conflict(`Employee ${w.toEmployeeId} already works shift ${clash.id} (${v.localStart} to ${v.localEnd}) then; the swap would double-book them.`);
    }
    decide(w, 'approved', caller.principal);
    s.employeeId = w.toEmployeeId;
    s.version += 1;
    s.updatedAt = clockNow();
    await tem.flush();
    const view = swapDto(w, s);
    record(tem, 'shift.swap_approved', view, caller.principal);
    recordEvent(tem, { type: 'shift.changed', aggregateType: 'shift', aggregateId: s.id, locationId: s.locationId, object: shiftDto(s, zone), previous: { employeeId: w.fromEmployeeId }, actor: caller.principal });
    return view;
  });
}

/** `:reject` with a reason (supplement: `pending` → `rejected`, final). */
export async function rejectSwap(em: EntityManager, id: string, reason: string, caller: { principal: Principal; reach: ReachSet }) {
  return em.transactional(async (tem) => {
    const w = await pendingSwap(tem, id, caller.reach);
    decide(w, 'rejected', caller.principal);
    w.rejectionReason = reason;
    await tem.flush();
    return (await viewsOf(tem, [w]))[0];
  });
}

async function expire(em: EntityManager, swaps: ShiftSwap[]) {
  const at = clockNow();
  for (const w of swaps) {
    w.status = 'expired';
    w.version += 1;
    w.updatedAt = at;
  }
  await em.flush();
}

/** Supplement: a pending swap expires when its shift starts (the expiry worker's pass). Answers how many expired. */
export async function expireStartedSwaps(em: EntityManager, take = 200): Promise<number> {
  return em.transactional(async (tem) => {
    const pending = await tem.find(ShiftSwap, { status: 'pending' }, { orderBy: { createdAt: 'asc' }, limit: take, lockMode: LockMode.PESSIMISTIC_WRITE });
    if (pending.length === 0) return 0;
    const shifts = new Map((await findPlain(tem, Shift, { id: { $in: pending.map((w) => w.shiftId) } })).map((s) => [s.id, s]));
    const due = pending.filter((w) => started(shifts.get(w.shiftId)!));
    if (due.length > 0) await expire(tem, due);
    return due.length;
  });
}

export async function getSwap(em: EntityManager, id: string, reach: ReachSet) {
  const w = await em.findOne(ShiftSwap, { id });
  if (!w) throw new NotFound('shift swap', id);
  assertSwapInReach(reach, w.locationId, [w.fromEmployeeId, w.toEmployeeId], 'either');
  return (await viewsOf(em, [w]))[0];
}

export async function listSwaps(em: EntityManager, f: { status?: string; scope?: EmployeeRecordScope; employeeId?: string }, page: PageRequest) {
  const rows = await findPage(
    em,
    ShiftSwap,
    [f.status && { status: f.status as never }, employeeScopeCondition<ShiftSwap>(f.scope, { location: (ids) => ({ locationId: ids }), employee: (ids) => ({ $or: [{ fromEmployeeId: ids }, { toEmployeeId: ids }] }) }), f.employeeId && { $or: [{ fromEmployeeId: f.employeeId }, { toEmployeeId: f.employeeId }] }],
    page,
  );
  return { ...rows, data: await viewsOf(em, rows.data) };
}
