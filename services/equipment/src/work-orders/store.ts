import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import Decimal from 'decimal.js';
import type { WorkOrderCancel, WorkOrderClose, WorkOrderCreate, WorkOrderListQuery, WorkOrderPatch } from '@bop/contracts';
import {
  Conflict,
  NotFound,
  ValidationError,
  assertLocationInReach,
  changedFields,
  findPage,
  fmtAmount,
  locationFilter,
  mapPage,
  now,
  resolveEmployees,
  writableLocations,
  type EntityManager,
  type FieldError,
  type ReachSet,
} from '@bop/shared';
import { WorkOrder, WorkOrderEntry } from './entities';
import { historyEntryDto, workOrderDto } from './dto';
import { openWorkOrder, recordHistory, recordWorkOrderEvent } from './record-store';
import type { Caller } from '../maintenance/store';
import { MaintenancePlan } from '../maintenance/entities';
import { resetPlanAfterWork } from '../maintenance/schedule-store';
import { Asset } from '../assets/entities';

async function workOrderDetail(em: EntityManager, w: WorkOrder) {
  const history = await em.find(WorkOrderEntry, { workOrderId: w.id }, { orderBy: { id: 'asc' } });
  return { ...workOrderDto(w), history: history.map(historyEntryDto) };
}

/** The assignee as people says (read through when the replica lacks them or holds them as not active): an active employee. */
async function assigneeError(em: EntityManager, employeeId: string): Promise<FieldError | null> {
  const e = (await resolveEmployees(em, 'equipment', [{ employeeId }], { doubt: (x) => x.status !== 'active', payRates: false })).byId.get(employeeId);
  if (!e) return { path: 'assigneeEmployeeId', message: `No employee ${employeeId}.` };
  if (e.status !== 'active') return { path: 'assigneeEmployeeId', message: `Employee ${employeeId} is ${e.status}; work is assigned to active employees.` };
  return null;
}

/**
 * `POST /work-orders` (supplement: Work order → `open`): for an asset (at its location) or a location;
 * linked to a maintenance plan, closing it resets the plan's next due. `work_order.created`.
 */
export async function createWorkOrder(em: EntityManager, body: z.output<typeof WorkOrderCreate>, caller: Caller) {
  return em.transactional(async (tem) => {
    const errors: FieldError[] = [];
    let assetId = body.assetId ?? null;
    let planId: string | null = null;
    if (body.maintenancePlanId) {
      const plan = await tem.findOne(MaintenancePlan, { id: body.maintenancePlanId });
      if (!plan) errors.push({ path: 'maintenancePlanId', message: `No maintenance plan ${body.maintenancePlanId}.` });
      else if (assetId && plan.assetId !== assetId) errors.push({ path: 'maintenancePlanId', message: `Plan ${plan.id} belongs to asset ${plan.assetId}, not ${assetId}.` });
      else {
        planId = plan.id;
        assetId = plan.assetId;
      }
    }
    let locationId = body.locationId ?? null;
    if (assetId) {
      const asset = await tem.findOne(Asset, { id: assetId });
      if (!asset) errors.push({ path: 'assetId', message: `No asset ${assetId}.` });
      else if (asset.status !== 'active') errors.push({ path: 'assetId', message: `Asset ${assetId} is archived (disposed).` });
      else if (locationId && locationId !== asset.locationId) errors.push({ path: 'locationId', message: `Asset ${assetId} stands at location ${asset.locationId}.` });
      else locationId = asset.locationId;
    }
    if (errors.length > 0) throw new ValidationError(errors);
    assertLocationInReach(caller.reach(), locationId!);
    if (!assetId) errors.push(...(await writableLocations(tem, 'equipment', [{ id: locationId!, path: 'locationId', takes: 'work orders' }])).errors);
    if (body.assigneeEmployeeId) {
      const e = await assigneeError(tem, body.assigneeEmployeeId);
      if (e) errors.push(e);
    }
    if (errors.length > 0) throw new ValidationError(errors);
    const w = openWorkOrder(
      tem,
      {
        title: body.title,
        description: body.description ?? null,
        priority: body.priority ?? 'medium',
        assetId,
        locationId: locationId!,
        source: 'manual',
        maintenancePlanId: planId,
        sensorAlarm: null,
        assigneeEmployeeId: body.assigneeEmployeeId ?? null,
        vendor: body.vendor ?? null,
        dueDate: body.dueDate ?? null,
        notes: body.notes ?? null,
      },
      caller.principal,
    );
    await tem.flush();
    return workOrderDetail(tem, w);
  });
}

export async function getWorkOrder(em: EntityManager, id: string, reach: ReachSet) {
  const w = await em.findOne(WorkOrder, { id });
  if (!w) throw new NotFound('work order', id);
  assertLocationInReach(reach, w.locationId);
  return workOrderDetail(em, w);
}

export async function listWorkOrders(em: EntityManager, query: z.output<typeof WorkOrderListQuery>, reach: ReachSet) {
  const { limit, cursor, status, locationId, assetId, priority } = query;
  const inLocations = locationFilter(reach, locationId);
  return mapPage(await findPage(em, WorkOrder, [inLocations && { locationId: inLocations }, status && { status }, assetId && { assetId }, priority && { priority }], { limit, cursor }), workOrderDto);
}

/**
 * A work order locked for a change (404, 403 out_of_reach, 409 version_mismatch), in one of the
 * states the change starts from (else 409 `conflict` naming its state: supplement, Work order rows).
 */
async function workOrderFor(em: EntityManager, id: string, caller: Caller, from: WorkOrder['status'][], what: string): Promise<WorkOrder> {
  const w = await em.findOne(WorkOrder, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!w) throw new NotFound('work order', id);
  assertLocationInReach(caller.reach(), w.locationId);
  caller.checkVersion(w.version);
  if (!from.includes(w.status)) throw new Conflict(`Work order ${id} is ${w.status}; only ${from.map((s) => (s === 'in_progress' ? 'an in-progress' : `an ${s}`)).join(' or ')} work order ${what}.`);
  return w;
}

/** Commits a change: version and time when something changed, the history entry, and the event. */
async function commit(em: EntityManager, w: WorkOrder, before: ReturnType<typeof workOrderDto>, caller: Caller, action: string, event: 'work_order.updated' | 'work_order.closed', note: string | null = null) {
  if (Object.keys(changedFields(before, workOrderDto(w))).length > 0) {
    w.version += 1;
    w.updatedAt = now();
    recordHistory(em, w.id, caller.principal, action, before, workOrderDto(w), note);
  }
  recordWorkOrderEvent(em, event, workOrderDto(w), caller.principal, before);
  await em.flush();
  return workOrderDetail(em, w);
}

/** `PATCH /work-orders/{id}` (open or in progress; state unchanged): `work_order.updated`. */
export async function patchWorkOrder(em: EntityManager, id: string, body: z.output<typeof WorkOrderPatch>, caller: Caller) {
  return em.transactional(async (tem) => {
    const w = await workOrderFor(tem, id, caller, ['open', 'in_progress'], 'changes');
    if (body.assigneeEmployeeId && body.assigneeEmployeeId !== w.assigneeEmployeeId) {
      const e = await assigneeError(tem, body.assigneeEmployeeId);
      if (e) throw new ValidationError([e]);
    }
    const before = workOrderDto(w);
    for (const field of ['title', 'description', 'priority', 'assigneeEmployeeId', 'vendor', 'dueDate', 'notes'] as const) {
      if (body[field] !== undefined) (w as Record<string, unknown>)[field] = body[field];
    }
    return commit(tem, w, before, caller, 'updated', 'work_order.updated');
  });
}

/** `:start` (`open` → `in_progress`): `work_order.updated`. */
export async function startWorkOrder(em: EntityManager, id: string, caller: Caller) {
  return em.transactional(async (tem) => {
    const w = await workOrderFor(tem, id, caller, ['open'], 'is started');
    const before = workOrderDto(w);
    w.status = 'in_progress';
    w.startedAt = now();
    return commit(tem, w, before, caller, 'started', 'work_order.updated');
  });
}

/**
 * `:close` with a resolution (`open` or `in_progress` → `closed`): cost (default: the parts' cost) and
 * parts used; a linked plan's next due is reset; `work_order.closed`.
 */
export async function closeWorkOrder(em: EntityManager, id: string, body: z.output<typeof WorkOrderClose>, caller: Caller) {
  return em.transactional(async (tem) => {
    const w = await workOrderFor(tem, id, caller, ['open', 'in_progress'], 'is closed');
    const before = workOrderDto(w);
    const at = now();
    const parts = (body.parts ?? []).map((p) => ({ name: p.name, quantity: p.quantity, unitCost: p.unitCost ?? null }));
    const priced = parts.filter((p) => p.unitCost !== null);
    w.status = 'closed';
    w.resolution = body.resolution;
    w.parts = parts;
    w.cost = body.cost ?? (priced.length > 0 ? fmtAmount(priced.reduce((sum, p) => sum.plus(new Decimal(p.quantity).times(p.unitCost!)), new Decimal(0))) : null);
    if (body.notes !== undefined) w.notes = body.notes;
    w.closedAt = at;
    if (w.maintenancePlanId) await resetPlanAfterWork(tem, w.maintenancePlanId, at);
    return commit(tem, w, before, caller, 'closed', 'work_order.closed');
  });
}

/** `:cancel` with a reason (`open` or `in_progress` → `cancelled`): `work_order.closed` with status `cancelled`. */
export async function cancelWorkOrder(em: EntityManager, id: string, body: z.output<typeof WorkOrderCancel>, caller: Caller) {
  return em.transactional(async (tem) => {
    const w = await workOrderFor(tem, id, caller, ['open', 'in_progress'], 'is cancelled');
    const before = workOrderDto(w);
    w.status = 'cancelled';
    w.cancelReason = body.reason;
    w.closedAt = now();
    return commit(tem, w, before, caller, 'cancelled', 'work_order.closed', body.reason);
  });
}
