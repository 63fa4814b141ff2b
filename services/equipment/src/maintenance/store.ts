import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import type { MaintenanceDueQuery, MaintenancePlanCreate, MaintenancePlanListQuery, MaintenancePlanPatch } from '@bop/contracts';
import Decimal from 'decimal.js';
import {
  NotFound,
  ValidationError,
  assertLocationInReach,
  changedFields,
  decodeCursor,
  findPage,
  fmtQuantity,
  locationFilter,
  addDays,
  newId,
  pageLimit,
  toPage,
  type EntityManager,
  type FieldError,
  type Work,
} from '@bop/shared';
import { MaintenancePlan } from './entities';
import { localDate, nextDueTotal, planDueState, serviceTotalAt, type DueState } from './due-rules';
import { dueDto, planDto } from './dto';
import { announceIfDue, meterOf, meterStates, openWorkOrdersOf, timezones, todayAt } from './schedule-store';
import type { FormCheck } from './forms-client';
import { Asset } from '../assets/entities';

async function planView(em: EntityManager, plan: MaintenancePlan) {
  return planDto(plan, meterOf(await meterStates(em, [plan.assetId]), plan));
}

/** `POST /maintenance-plans`: a plan of an active asset within reach; announced at once when it is due now. */
export async function createPlan(w: Work, body: z.output<typeof MaintenancePlanCreate>, checkForm: FormCheck) {
  const { em } = w;
  const asset = await em.findOne(Asset, { id: body.assetId });
  if (!asset) throw new ValidationError([{ path: 'assetId', message: `No asset ${body.assetId}.` }]);
  assertLocationInReach(w.reach(), asset.locationId);
  if (asset.status !== 'active') throw new ValidationError([{ path: 'assetId', message: `Asset ${asset.id} is archived; it takes no new plans.` }]);
  const errors: FieldError[] = [];
  if (body.checklistFormId) {
    const e = await checkForm(body.checklistFormId);
    if (e) errors.push(e);
  }
  let schedule: Pick<MaintenancePlan, 'intervalDays' | 'nextDueDate' | 'meter' | 'intervalUnits' | 'nextDueTotal'>;
  if (body.intervalDays !== undefined) {
    schedule = { intervalDays: body.intervalDays, nextDueDate: body.nextDueDate ?? addDays(await todayAt(w, asset.locationId), body.intervalDays), meter: null, intervalUnits: null, nextDueTotal: null };
  } else {
    const meter = meterOf(await meterStates(em, [asset.id]), { assetId: asset.id, meter: body.meter! });
    const service = serviceTotalAt(meter, body.lastServiceValue);
    if ('error' in service) errors.push({ path: 'lastServiceValue', message: service.error });
    schedule = { intervalDays: null, nextDueDate: null, meter: body.meter!, intervalUnits: body.intervalUnits!, nextDueTotal: 'total' in service ? nextDueTotal(service.total, body.intervalUnits!) : '0' };
  }
  if (errors.length > 0) throw new ValidationError(errors);
  const at = w.now;
  const plan = em.create(MaintenancePlan, {
    id: newId('maintenancePlan'),
    assetId: asset.id,
    locationId: asset.locationId,
    name: body.name,
    description: body.description ?? null,
    ...schedule,
    cycle: 1,
    checklistFormId: body.checklistFormId ?? null,
    createsWorkOrder: body.createsWorkOrder ?? false,
    active: body.active ?? true,
    lastDoneAt: null,
    version: 1,
    createdAt: at,
    updatedAt: at,
  });
  await em.flush();
  await announceIfDue(w, plan, asset);
  return planView(em, plan);
}

/**
 * `PATCH /maintenance-plans/{id}`: a new interval keeps the last service as its anchor (the next due
 * moves by the difference); `active` = false stops the plan. A changed schedule that makes it due now
 * announces it (spec mapping `maintenance.due`).
 */
export async function patchPlan(w: Work, id: string, body: z.output<typeof MaintenancePlanPatch>, checkForm: FormCheck) {
  const { em } = w;
  const plan = await em.findOne(MaintenancePlan, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!plan) throw new NotFound('maintenance plan', id);
  assertLocationInReach(w.reach(), plan.locationId);
  w.checkVersion(plan.version);
  const asset = (await em.findOne(Asset, { id: plan.assetId }))!;
  const byDays = plan.intervalDays != null;
  const errors: FieldError[] = [];
  if (byDays && body.intervalUnits !== undefined) errors.push({ path: 'intervalUnits', message: 'This plan runs by days; create a plan by meter instead.' });
  if (!byDays && body.intervalDays !== undefined) errors.push({ path: 'intervalDays', message: 'This plan runs by meter; create a plan by days instead.' });
  if (!byDays && body.nextDueDate !== undefined) errors.push({ path: 'nextDueDate', message: 'Only a plan by days has a due date.' });
  if (body.checklistFormId && body.checklistFormId !== plan.checklistFormId) {
    const e = await checkForm(body.checklistFormId);
    if (e) errors.push(e);
  }
  if (body.active === true && !plan.active && asset.status !== 'active') errors.push({ path: 'active', message: `Asset ${asset.id} is archived; its plans stay stopped.` });
  if (errors.length > 0) throw new ValidationError(errors);
  const before = await planView(em, plan);
  if (byDays) {
    if (body.nextDueDate !== undefined) plan.nextDueDate = body.nextDueDate;
    else if (body.intervalDays !== undefined && body.intervalDays !== plan.intervalDays) plan.nextDueDate = addDays(plan.nextDueDate!, body.intervalDays - plan.intervalDays!);
    if (body.intervalDays !== undefined) plan.intervalDays = body.intervalDays;
  } else if (body.intervalUnits !== undefined) {
    plan.nextDueTotal = fmtQuantity(new Decimal(plan.nextDueTotal!).minus(plan.intervalUnits!).plus(body.intervalUnits));
    plan.intervalUnits = body.intervalUnits;
  }
  for (const field of ['name', 'description', 'checklistFormId', 'createsWorkOrder', 'active'] as const) {
    if (body[field] !== undefined) (plan as Record<string, unknown>)[field] = body[field];
  }
  const after = await planView(em, plan);
  if (Object.keys(changedFields(before, after)).length === 0) return before;
  plan.version += 1;
  plan.updatedAt = w.now;
  await em.flush();
  await announceIfDue(w, plan, asset);
  return planView(em, plan);
}

export async function listPlans(w: Work, query: z.output<typeof MaintenancePlanListQuery>) {
  const { em } = w;
  const reach = w.reach();
  const { limit, cursor, updatedSince, assetId, active } = query;
  const inLocations = locationFilter(reach, undefined);
  const page = await findPage(em, MaintenancePlan, [inLocations && { locationId: inLocations }, assetId && { assetId }, active && { active: active === 'true' }], { limit, cursor, updatedSince });
  const meters = await meterStates(em, page.data.map((p) => p.assetId));
  return { ...page, data: page.data.map((p) => planDto(p, meterOf(meters, p))) };
}

/**
 * `GET /maintenance-due`: the active plans of active assets within reach that are due or overdue (by
 * date at the asset's location, or by meter), and with `withinDays` the date plans coming due within
 * that many days; in plan order (cursor paging).
 */
export async function listDue(w: Work, query: z.output<typeof MaintenanceDueQuery>) {
  const { em } = w;
  const reach = w.reach();
  const n = pageLimit(query.limit);
  const inLocations = locationFilter(reach, query.locationId);
  let after = decodeCursor(query.cursor);
  const found: Array<{ id: string; plan: MaintenancePlan; asset: Asset; state: DueState }> = [];
  const at = w.now;
  for (;;) {
    const plans = await em.find(
      MaintenancePlan,
      { active: true, ...(inLocations ? { locationId: inLocations } : {}), ...(after ? { id: { $gt: after } } : {}) },
      { orderBy: { id: 'asc' }, limit: 200 },
    );
    if (plans.length === 0) break;
    const assets = new Map((await em.find(Asset, { id: { $in: plans.map((p) => p.assetId) }, status: 'active' })).map((a) => [a.id, a]));
    const zones = await timezones(em, plans.map((p) => p.locationId));
    const meters = await meterStates(em, plans.map((p) => p.assetId));
    for (const plan of plans) {
      const asset = assets.get(plan.assetId);
      if (!asset) continue;
      const state = planDueState(plan, localDate(zones.get(plan.locationId) ?? 'UTC', at), meterOf(meters, plan));
      if (state.due || (state.basis === 'date' && state.daysOverdue >= -query.withinDays)) found.push({ id: plan.id, plan, asset, state });
    }
    after = plans[plans.length - 1].id;
    if (found.length > n || plans.length < 200) break;
  }
  const rows = found.slice(0, n + 1);
  const open = await openWorkOrdersOf(em, rows.map((r) => r.id));
  return toPage(rows, n, (r) => dueDto(r.plan, r.asset, r.state, open.get(r.id) ?? null));
}
