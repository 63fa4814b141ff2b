import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import Decimal from 'decimal.js';
import type { AssetCreate, AssetListQuery, AssetPatch, AssetState, MeterReadingsCreate } from '@bop/contracts';
import {
  Conflict,
  NotFound,
  ValidationError,
  actorOf,
  assertLocationInReach,
  changedFields,
  findPage,
  fmtAmount,
  fmtQuantity,
  locationFilter,
  mapPage,
  newId,
  writableLocations,
  type EntityManager,
  type FieldError,
  type Work,
} from '@bop/shared';
import { Asset, AssetMeter, AssetMove, MeterReading } from './entities';
import { assetDto, moveDto, readingDto } from './dto';
import { MaintenancePlan } from '../maintenance/entities';
import { readingOrderError, readingTotal } from '../maintenance/due-rules';
import { announceIfDue, meterStates } from '../maintenance/schedule-store';
import { WorkOrder } from '../work-orders/entities';

/** A unique serial number (make, model, serial) taken by another asset: the 409 of `POST /assets` and `PATCH /assets/{id}`. */
export const serialTaken = () => new Conflict('Another asset of this make and model already has this serial number.', [{ path: 'serialNumber', message: 'Already used by another asset of this make and model.' }]);

/** An asset with its meters as last read, its moves and its maintenance history (closed work orders). */
async function assetDetail(em: EntityManager, a: Asset) {
  const meters = (await meterStates(em, [a.id])).get(a.id) ?? new Map();
  const moves = await em.find(AssetMove, { assetId: a.id }, { orderBy: { id: 'asc' } });
  const closed = await em.find(WorkOrder, { assetId: a.id, status: 'closed' }, { orderBy: { closedAt: 'desc', id: 'desc' }, limit: 100 });
  const planIds = [...new Set(closed.map((w) => w.maintenancePlanId).filter((x): x is string => Boolean(x)))];
  const plans = new Map((planIds.length ? await em.find(MaintenancePlan, { id: { $in: planIds } }, { fields: ['id', 'name'] }) : []).map((p) => [p.id, p.name]));
  return {
    ...assetDto(a),
    meters: [...meters.entries()].map(([meter, m]) => ({ meter, value: fmtQuantity(m.value), readAt: m.readAt.toISOString(), readingId: m.readingId })),
    moves: moves.map(moveDto),
    maintenanceHistory: closed.map((w) => ({
      workOrderId: w.id,
      title: w.title,
      maintenancePlanId: w.maintenancePlanId ?? null,
      maintenancePlanName: w.maintenancePlanId ? (plans.get(w.maintenancePlanId) ?? null) : null,
      closedAt: w.closedAt!.toISOString(),
      resolution: w.resolution ?? null,
      cost: w.cost === null || w.cost === undefined ? null : fmtAmount(w.cost),
    })),
  };
}

/** A location an asset is put at: within reach, and active as organization says now. */
async function assertAssetLocation(w: Work, locationId: string): Promise<void> {
  assertLocationInReach(w.reach(), locationId);
  const { errors } = await writableLocations(w, [{ id: locationId, path: 'locationId', takes: 'assets' }]);
  if (errors.length > 0) throw new ValidationError(errors);
}

/**
 * The asset's change events (the project's own public types, issue 41 item 3): data.object the asset as the
 * API returns it (with its meters, moves and maintenance history), data.previous the asset fields that changed.
 */
const assetEvent = (w: Work, type: 'asset.created' | 'asset.updated' | 'asset.archived', detail: Awaited<ReturnType<typeof assetDetail>>, previous?: Record<string, unknown>) =>
  w.emit({ type, aggregateType: 'asset', aggregateId: detail.id, locationId: detail.locationId, object: detail, ...(previous ? { previous } : {}) });

export async function createAsset(w: Work, body: z.output<typeof AssetCreate>) {
  await assertAssetLocation(w, body.locationId);
  const at = w.now;
  const a = w.em.create(Asset, {
    id: newId('asset'),
    name: body.name,
    category: body.category ?? null,
    make: body.make ?? null,
    model: body.model ?? null,
    serialNumber: body.serialNumber ?? null,
    locationId: body.locationId,
    warrantyEndDate: body.warrantyEndDate ?? null,
    status: 'active',
    workOrderOnSensorAlarm: body.workOrderOnSensorAlarm ?? false,
    notes: body.notes ?? null,
    version: 1,
    createdAt: at,
    updatedAt: at,
    archivedAt: null,
  });
  await w.em.flush();
  const detail = await assetDetail(w.em, a);
  assetEvent(w, 'asset.created', detail);
  return detail;
}

export async function getAsset(w: Work, id: string) {
  const a = await w.em.findOne(Asset, { id });
  if (!a) throw new NotFound('asset', id);
  assertLocationInReach(w.reach(), a.locationId);
  return assetDetail(w.em, a);
}

export async function listAssets(w: Work, query: z.output<typeof AssetListQuery>) {
  const { limit, cursor, updatedSince, locationId, category, status } = query;
  const inLocations = locationFilter(w.reach(), locationId);
  return mapPage(await findPage(w.em, Asset, [inLocations && { locationId: inLocations }, category && { category }, status && { status }], { limit, cursor, updatedSince }), assetDto);
}

/** An asset locked for a change the caller may make (404, 403 out_of_reach, 409 version_mismatch). */
async function assetForChange(w: Work, id: string): Promise<Asset> {
  const a = await w.em.findOne(Asset, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!a) throw new NotFound('asset', id);
  assertLocationInReach(w.reach(), a.locationId);
  w.checkVersion(a.version);
  return a;
}

const assertNotArchived = (a: Asset) => {
  if (a.status === 'archived') throw new Conflict(`Asset ${a.id} is archived (disposed); its record no longer changes.`);
};

/** `PATCH /assets/{id}`: partial update; a new location is a move (kept with who and when; its plans move with it). */
export async function patchAsset(w: Work, id: string, body: z.output<typeof AssetPatch>) {
  const { em } = w;
  if (body.locationId !== undefined) assertLocationInReach(w.reach(), body.locationId);
  const a = await assetForChange(w, id);
  assertNotArchived(a);
  const before = assetDto(a);
  if (body.locationId !== undefined && body.locationId !== a.locationId) {
    await assertAssetLocation(w, body.locationId);
    em.create(AssetMove, { id: newId('assetMove'), assetId: a.id, fromLocationId: a.locationId, toLocationId: body.locationId, movedAt: w.now, movedBy: actorOf(w.actor) });
    for (const plan of await em.find(MaintenancePlan, { assetId: a.id }, { lockMode: LockMode.PESSIMISTIC_WRITE })) plan.locationId = body.locationId;
    a.locationId = body.locationId;
  }
  for (const field of ['name', 'category', 'make', 'model', 'serialNumber', 'warrantyEndDate', 'workOrderOnSensorAlarm', 'notes'] as const) {
    if (body[field] !== undefined) (a as Record<string, unknown>)[field] = body[field];
  }
  const changed = Object.keys(changedFields(before, assetDto(a))).length > 0;
  if (changed) {
    a.version += 1;
    a.updatedAt = w.now;
  }
  await em.flush();
  const detail = await assetDetail(em, a);
  if (changed) assetEvent(w, 'asset.updated', detail, changedFields(before, assetDto(a)));
  return detail;
}

/** `DELETE /assets/{id}`: archived (disposed); readings, moves, plans and work orders are kept; its plans come due no more. */
export async function archiveAsset(w: Work, id: string) {
  const a = await assetForChange(w, id);
  if (a.status === 'archived') return assetDetail(w.em, a);
  const before = assetDto(a);
  const at = w.now;
  a.status = 'archived';
  a.archivedAt = at;
  a.updatedAt = at;
  a.version += 1;
  await w.em.flush();
  const detail = await assetDetail(w.em, a);
  assetEvent(w, 'asset.archived', detail, changedFields(before, assetDto(a)));
  return detail;
}

/** Readings may be dated up to this far ahead of the clock (devices' clocks drift). */
const FUTURE_SLACK_MS = 5 * 60_000;

/**
 * `POST /assets/{id}/meter-readings`: each reading stands between its neighbours in time (a meter never
 * goes backwards; 422 naming the field with the reading it would pass), a reset only as the newest; the
 * same reading sent again is kept once. Then each meter plan of the asset that reached its threshold is
 * announced (`maintenance.due`, and its work order when the plan makes one).
 */
export async function recordMeterReadings(w: Work, id: string, body: z.output<typeof MeterReadingsCreate>) {
  const { em } = w;
  const a = await em.findOne(Asset, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!a) throw new NotFound('asset', id);
  assertLocationInReach(w.reach(), a.locationId);
  assertNotArchived(a);
  const at = w.now;
  const errors: FieldError[] = [];
  const order = body.readings.map((r, index) => ({ ...r, index, readAt: r.readAt ? new Date(r.readAt) : at })).sort((x, y) => x.readAt.getTime() - y.readAt.getTime() || x.index - y.index);
  const stored: MeterReading[] = [];
  for (const r of order) {
    const path = `readings[${r.index}]`;
    if (r.readAt.getTime() > at.getTime() + FUTURE_SLACK_MS) {
      errors.push({ path: `${path}.readAt`, message: 'A reading cannot be dated in the future.' });
      continue;
    }
    const same = await em.findOne(MeterReading, { assetId: a.id, meter: r.meter, readAt: r.readAt });
    if (same) {
      if (new Decimal(same.value).eq(r.value) && same.reset === (r.reset ?? false)) stored.push(same);
      else errors.push({ path: `${path}.readAt`, message: `A ${r.meter} reading at ${r.readAt.toISOString()} is already recorded (${readingDto(same).value}).` });
      continue;
    }
    const prev = await em.findOne(MeterReading, { assetId: a.id, meter: r.meter, readAt: { $lt: r.readAt } }, { orderBy: { readAt: 'desc' } });
    const next = await em.findOne(MeterReading, { assetId: a.id, meter: r.meter, readAt: { $gt: r.readAt } }, { orderBy: { readAt: 'asc' } });
    const wrong = readingOrderError(r.meter, r.value, r.reset ?? false, prev, next);
    if (wrong) {
      errors.push({ path: `${path}.${wrong.field}`, message: wrong.message });
      continue;
    }
    const reading = em.create(MeterReading, {
      id: newId('meterReading'),
      assetId: a.id,
      meter: r.meter,
      value: r.value,
      total: readingTotal(prev, r.value, r.reset ?? false),
      reset: r.reset ?? false,
      readAt: r.readAt,
      recordedAt: at,
      recordedBy: actorOf(w.actor),
    });
    if (!next) {
      const current = await em.findOne(AssetMeter, { assetId: a.id, meter: r.meter });
      if (current) Object.assign(current, { readingId: reading.id, value: reading.value, total: reading.total, readAt: reading.readAt });
      else em.create(AssetMeter, { assetId: a.id, meter: r.meter, readingId: reading.id, value: reading.value, total: reading.total, readAt: reading.readAt });
    }
    await em.flush();
    stored.push(reading);
  }
  if (errors.length > 0) throw new ValidationError(errors);
  const meters = [...new Set(stored.map((r) => r.meter))];
  const plans = meters.length ? await em.find(MaintenancePlan, { assetId: a.id, meter: { $in: meters }, active: true }, { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' } }) : [];
  for (const plan of plans) await announceIfDue(w, plan, a);
  const detail = await assetDetail(em, a);
  const byIndex = new Map(order.map((r, i) => [r.index, stored[i]]));
  return { assetId: a.id, readings: body.readings.map((_r, i) => readingDto(byIndex.get(i)!)), meters: detail.meters };
}

/** The assets of these ids as they stand now (operations' internal read for its sensors; unknown ids absent). */
export async function assetStates(w: Work, ids: string[]): Promise<AssetState[]> {
  const rows = await w.em.find(Asset, { id: { $in: [...new Set(ids)] } }, { orderBy: { id: 'asc' } });
  return rows.map((a) => ({ id: a.id, name: a.name, locationId: a.locationId, status: a.status, workOrderOnSensorAlarm: a.workOrderOnSensorAlarm }));
}
