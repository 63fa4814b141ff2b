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
  resolveEmployees,
  writableLocations,
  type EntityManager,
  type FieldError,
  type Work,
} from '@bop/shared';
import { WorkOrder, WorkOrderEntry } from './entities';
import { historyEntryDto, workOrderDto } from './dto';
import { openWorkOrder, recordHistory, recordWorkOrderEvent } from './record-store';
import { MaintenancePlan } from '../maintenance/entities';
import { resetPlanAfterWork } from '../maintenance/schedule-store';
import { Asset } from '../assets/entities';

async function workOrderDetail(em: EntityManager, order: WorkOrder) {
  const history = await em.find(WorkOrderEntry, { workOrderId: order.id }, { orderBy: { id: 'asc' } });
  return { ...workOrderDto(order), history: history.map(historyEntryDto) };
}

/** The assignee as people says (read through when the replica lacks them or holds them as not active): an active employee. */
async function assigneeError(w: Work, employeeId: string): Promise<FieldError | null> {
  const e = (await resolveEmployees(w, [{ employeeId }], { doubt: (x) => x.status !== 'active', payRates: false })).byId.get(employeeId);
  if (!e) return { path: 'assigneeEmployeeId', message: `No employee ${employeeId}.` };
  if (e.status !== 'active') return { path: 'assigneeEmployeeId', message: `Employee ${employeeId} is ${e.status}; work is assigned to active employees.` };
  return null;
}

/**
 * `POST /work-orders` (supplement: Work order → `open`): for an asset (at its location) or a location;
 * linked to a maintenance plan, closing it resets the plan's next due. `work_order.created`.
 */
export async function createWorkOrder(w: Work, body: z.output<typeof WorkOrderCreate>) {
  const { em } = w;
  const errors: FieldError[] = [];
  let assetId = body.assetId ?? null;
  let planId: string | null = null;
  if (body.maintenancePlanId) {
    const plan = await em.findOne(MaintenancePlan, { id: body.maintenancePlanId });
    if (!plan) errors.push({ path: 'maintenancePlanId', message: `No maintenance plan ${body.maintenancePlanId}.` });
    else if (assetId && plan.assetId !== assetId) errors.push({ path: 'maintenancePlanId', message: `Plan ${plan.id} belongs to asset ${plan.assetId}, not ${assetId}.` });
    else {
      planId = plan.id;
      assetId = plan.assetId;
    }
  }
  let locationId = body.locationId ?? null;
  if (assetId) {
    const asset = await em.findOne(Asset, { id: assetId });
    if (!asset) errors.push({ path: 'assetId', message: `No asset ${assetId}.` });
    else if (asset.status !== 'active') errors.push({ path: 'assetId', message: `Asset ${assetId} is archived (disposed).` });
    else if (locationId && locationId !== asset.locationId) errors.push({ path: 'locationId', message: `Asset ${assetId} stands at location ${asset.locationId}.` });
    else locationId = asset.locationId;
  }
  if (errors.length > 0) throw new ValidationError(errors);
  assertLocationInReach(w.reach(), locationId!);
  if (!assetId) errors.push(...(await writableLocations(w, [{ id: locationId!, path: 'locationId', takes: 'work orders' }])).errors);
  if (body.assigneeEmployeeId) {
    const e = await assigneeError(w, body.assigneeEmployeeId);
    if (e) errors.push(e);
  }
  if (errors.length > 0) throw new ValidationError(errors);
  const order = openWorkOrder(
    w,
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
  );
  await em.flush();
  return workOrderDetail(em, order);
}

export async function getWorkOrder(w: Work, id: string) {
  const order = await w.em.findOne(WorkOrder, { id });
  if (!order) throw new NotFound('work order', id);
  assertLocationInReach(w.reach(), order.locationId);
  return workOrderDetail(w.em, order);
}

export async function listWorkOrders(w: Work, query: z.output<typeof WorkOrderListQuery>) {
  const { limit, cursor, updatedSince, status, locationId, assetId, priority } = query;
  const inLocations = locationFilter(w.reach(), locationId);
  return mapPage(await findPage(w.em, WorkOrder, [inLocations && { locationId: inLocations }, status && { status }, assetId && { assetId }, priority && { priority }], { limit, cursor, updatedSince }), workOrderDto);
}

/**
 * A work order locked for a change (404, 403 out_of_reach, 409 version_mismatch), in one of the
 * states the change starts from (else 409 `conflict` naming its state: supplement, Work order rows).
 */
async function workOrderFor(w: Work, id: string, from: WorkOrder['status'][], what: string): Promise<WorkOrder> {
  const order = await w.em.findOne(WorkOrder, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!order) throw new NotFound('work order', id);
  assertLocationInReach(w.reach(), order.locationId);
  w.checkVersion(order.version);
  if (!from.includes(order.status)) throw new Conflict(`Work order ${id} is ${order.status}; only ${from.map((s) => (s === 'in_progress' ? 'an in-progress' : `an ${s}`)).join(' or ')} work order ${what}.`);
  return order;
}

/** Commits a change: version and time when something changed, the history entry, and the event. */
async function commit(w: Work, order: WorkOrder, before: ReturnType<typeof workOrderDto>, action: string, event: 'work_order.updated' | 'work_order.closed', note: string | null = null) {
  if (Object.keys(changedFields(before, workOrderDto(order))).length > 0) {
    order.version += 1;
    order.updatedAt = w.now;
    recordHistory(w, order.id, action, before, workOrderDto(order), note);
  }
  recordWorkOrderEvent(w, event, workOrderDto(order), before);
  await w.em.flush();
  return workOrderDetail(w.em, order);
}

/** `PATCH /work-orders/{id}` (open or in progress; state unchanged): `work_order.updated`. */
export async function patchWorkOrder(w: Work, id: string, body: z.output<typeof WorkOrderPatch>) {
  const order = await workOrderFor(w, id, ['open', 'in_progress'], 'changes');
  if (body.assigneeEmployeeId && body.assigneeEmployeeId !== order.assigneeEmployeeId) {
    const e = await assigneeError(w, body.assigneeEmployeeId);
    if (e) throw new ValidationError([e]);
  }
  const before = workOrderDto(order);
  for (const field of ['title', 'description', 'priority', 'assigneeEmployeeId', 'vendor', 'dueDate', 'notes'] as const) {
    if (body[field] !== undefined) (order as Record<string, unknown>)[field] = body[field];
  }
  return commit(w, order, before, 'updated', 'work_order.updated');
}

/** `:start` (`open` → `in_progress`): `work_order.updated`. */
export async function startWorkOrder(w: Work, id: string) {
  const order = await workOrderFor(w, id, ['open'], 'is started');
  const before = workOrderDto(order);
  order.status = 'in_progress';
  order.startedAt = w.now;
  return commit(w, order, before, 'started', 'work_order.updated');
}

/**
 * `:close` with a resolution (`open` or `in_progress` → `closed`): cost (default: the parts' cost) and
 * parts used; a linked plan's next due is reset; `work_order.closed`.
 */
export async function closeWorkOrder(w: Work, id: string, body: z.output<typeof WorkOrderClose>) {
  const order = await workOrderFor(w, id, ['open', 'in_progress'], 'is closed');
  const before = workOrderDto(order);
  const at = w.now;
  const parts = (body.parts ?? []).map((p) => ({ name: p.name, quantity: p.quantity, unitCost: p.unitCost ?? null }));
  const priced = parts.filter((p) => p.unitCost !== null);
  order.status = 'closed';
  order.resolution = body.resolution;
  order.parts = parts;
  order.cost = body.cost ?? (priced.length > 0 ? fmtAmount(priced.reduce((sum, p) => sum.plus(new Decimal(p.quantity).times(p.unitCost!)), new Decimal(0))) : null);
  if (body.notes !== undefined) order.notes = body.notes;
  order.closedAt = at;
  if (order.maintenancePlanId) await resetPlanAfterWork(w, order.maintenancePlanId, at);
  return commit(w, order, before, 'closed', 'work_order.closed');
}

/** `:cancel` with a reason (`open` or `in_progress` → `cancelled`): `work_order.closed` with status `cancelled`. */
export async function cancelWorkOrder(w: Work, id: string, body: z.output<typeof WorkOrderCancel>) {
  const order = await workOrderFor(w, id, ['open', 'in_progress'], 'is cancelled');
  const before = workOrderDto(order);
  order.status = 'cancelled';
  order.cancelReason = body.reason;
  order.closedAt = w.now;
  return commit(w, order, before, 'cancelled', 'work_order.closed', body.reason);
}
