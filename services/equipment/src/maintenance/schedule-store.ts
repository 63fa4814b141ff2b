import { LockMode } from '@mikro-orm/core';
import { actorOf, addDays, newId, type EntityManager, type Work } from '@bop/shared';
import { type MeterKind } from '@bop/contracts';
import { MaintenanceOccurrence, MaintenancePlan } from './entities';
import { localDate, nextDueTotal, planDueState, type MeterNow } from './due-rules';
import { dueDto } from './dto';
import { Asset, AssetMeter } from '../assets/entities';
import { EquipmentLocation } from '../locations/entities';
import { WorkOrder } from '../work-orders/entities';
import { openWorkOrder } from '../work-orders/record-store';

/** The meters of assets as last read: asset id → meter → value and lifetime total. */
export async function meterStates(em: EntityManager, assetIds: string[]): Promise<Map<string, Map<MeterKind, MeterNow & { readAt: Date; readingId: string }>>> {
  const out = new Map<string, Map<MeterKind, MeterNow & { readAt: Date; readingId: string }>>();
  if (assetIds.length === 0) return out;
  for (const m of await em.find(AssetMeter, { assetId: { $in: [...new Set(assetIds)] } }, { orderBy: { meter: 'asc' } })) {
    if (!out.has(m.assetId)) out.set(m.assetId, new Map());
    out.get(m.assetId)!.set(m.meter, { value: m.value, total: m.total, readAt: m.readAt, readingId: m.readingId });
  }
  return out;
}

/** The meter a plan counts, as last read (null: a date plan, or a meter never read). */
export function meterOf(states: Awaited<ReturnType<typeof meterStates>>, plan: Pick<MaintenancePlan, 'assetId' | 'meter'>): MeterNow | null {
  return plan.meter ? (states.get(plan.assetId)?.get(plan.meter) ?? null) : null;
}

/** The time zones of locations from the replica (a location it does not know yet counts in UTC). */
export async function timezones(em: EntityManager, locationIds: string[]): Promise<Map<string, string>> {
  if (locationIds.length === 0) return new Map();
  const rows = await em.find(EquipmentLocation, { id: { $in: [...new Set(locationIds)] } }, { fields: ['id', 'timezone'] });
  return new Map(rows.map((l) => [l.id, l.timezone]));
}

/** Today at a location (the unit's instant). */
export async function todayAt(w: Work, locationId: string): Promise<string> {
  return localDate((await timezones(w.em, [locationId])).get(locationId) ?? 'UTC', w.now);
}

/** The plans' work orders not yet closed: plan id → work order id. */
export async function openWorkOrdersOf(em: EntityManager, planIds: string[]): Promise<Map<string, string>> {
  if (planIds.length === 0) return new Map();
  const rows = await em.find(WorkOrder, { maintenancePlanId: { $in: planIds }, status: { $in: ['open', 'in_progress'] } }, { fields: ['id', 'maintenancePlanId'], orderBy: { id: 'asc' } });
  return new Map(rows.map((w) => [w.maintenancePlanId!, w.id]));
}

/**
 * spec mapping `maintenance.due`: announces a locked plan that is due now, once per occurrence (its
 * cycle and due point; the unique occurrence row is the proof), and opens its work order when the plan
 * says so and none of its work orders is still open (`work_order.created`, never twice for one
 * occurrence). Answers whether it announced.
 */
export async function announceIfDue(w: Work, plan: MaintenancePlan, asset: Pick<Asset, 'id' | 'name' | 'locationId' | 'status'>): Promise<boolean> {
  const { em } = w;
  if (!plan.active || asset.status !== 'active') return false;
  const meter = plan.meter ? meterOf(await meterStates(em, [asset.id]), plan) : null;
  const state = planDueState(plan, await todayAt(w, asset.locationId), meter);
  if (!state.due) return false;
  if (await em.findOne(MaintenanceOccurrence, { planId: plan.id, occurrenceKey: state.key }, { fields: ['id'] })) return false;
  let openId = (await openWorkOrdersOf(em, [plan.id])).get(plan.id) ?? null;
  const occurrence = em.create(MaintenanceOccurrence, {
    id: newId('maintenanceOccurrence'),
    planId: plan.id,
    occurrenceKey: state.key,
    due: {},
    workOrderId: null,
    createdAt: w.now,
    createdBy: actorOf(w.actor),
  });
  const announce = () => {
    const object = dueDto(plan, asset, state, openId);
    occurrence.due = object;
    w.emit({ type: 'maintenance.due', aggregateType: 'maintenance_plan', aggregateId: plan.id, locationId: asset.locationId, object });
  };
  if (plan.createsWorkOrder && openId === null) {
    const order = openWorkOrder(
      w,
      {
        title: `Maintenance: ${plan.name}`,
        description: `${plan.description ? `${plan.description}\n` : ''}Due: ${state.reason}.`,
        priority: state.overdue ? 'high' : 'medium',
        assetId: asset.id,
        locationId: asset.locationId,
        source: 'maintenance_plan',
        maintenancePlanId: plan.id,
        sensorAlarm: null,
        assigneeEmployeeId: null,
        vendor: null,
        dueDate: state.basis === 'date' ? state.nextDueDate : null,
        notes: null,
      },
    );
    openId = order.id;
    occurrence.workOrderId = order.id;
  }
  // maintenance.due first, then the work order it opened
  announce();
  await em.flush();
  return true;
}

/**
 * spec (Work order `:close`): "a linked plan's next due date is reset" — a date plan from the day of
 * the close at the asset, a meter plan from the meter's current reading. The plan's next cycle begins.
 */
export async function resetPlanAfterWork(w: Work, planId: string, closedAt: Date): Promise<void> {
  const { em } = w;
  const plan = await em.findOne(MaintenancePlan, { id: planId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!plan) return;
  if (plan.intervalDays != null) {
    plan.nextDueDate = addDays(localDate((await timezones(em, [plan.locationId])).get(plan.locationId) ?? 'UTC', closedAt), plan.intervalDays!);
  } else {
    const meter = meterOf(await meterStates(em, [plan.assetId]), plan);
    plan.nextDueTotal = nextDueTotal(meter?.total ?? '0', plan.intervalUnits!);
  }
  plan.cycle += 1;
  plan.lastDoneAt = closedAt;
  plan.version += 1;
  plan.updatedAt = w.now;
}

/**
 * The daily check's candidates (actor `system`): date plans whose due date has come at their asset's
 * location and whose occurrence has not been announced. Local days differ by zone, so every plan due
 * by tomorrow in UTC is looked at (and decided in its own zone by `announceDatePlan`). Answers their ids.
 */
export async function datePlansToCheck(w: Work): Promise<string[]> {
  const { em } = w;
  const horizon = addDays(localDate('UTC', w.now), 1);
  const candidates = await em.find(MaintenancePlan, { active: true, intervalDays: { $ne: null }, nextDueDate: { $lte: horizon } }, { fields: ['id', 'cycle', 'nextDueDate'], orderBy: { id: 'asc' } });
  if (candidates.length === 0) return [];
  const announced = await em.find(MaintenanceOccurrence, { planId: { $in: candidates.map((c) => c.id) } }, { fields: ['planId', 'occurrenceKey'] });
  const seen = new Set(announced.map((o) => `${o.planId}|${o.occurrenceKey}`));
  return candidates.filter((c) => !seen.has(`${c.id}|${c.cycle}:date:${c.nextDueDate}`)).map((c) => c.id);
}

/** One candidate of the daily check, in a unit of its own: announced when due at its location. Answers 1 when it announced. */
export async function announceDatePlan(w: Work, planId: string): Promise<number> {
  const plan = await w.em.findOne(MaintenancePlan, { id: planId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  const asset = plan ? await w.em.findOne(Asset, { id: plan.assetId }) : null;
  if (!plan || !asset) return 0;
  return (await announceIfDue(w, plan, asset)) ? 1 : 0;
}
